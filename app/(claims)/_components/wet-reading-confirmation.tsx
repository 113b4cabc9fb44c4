import { CONFIRM_WET_FIELD } from '@/lib/drying-form';
import { staffVisitText } from '@/content/drying';

/** The box that confirms a reading above its goal on a claim at `dried` (it moves the claim back to drying). */
export function WetReadingConfirmation({ error }: { error: string | undefined }) {
  return (
    <div>
      <label className="flex items-center gap-2 font-semibold text-brand-900">
        <input
          type="checkbox"
          name={CONFIRM_WET_FIELD}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'visit-confirm-wet-error' : undefined}
        />
        {staffVisitText.confirmWet}
      </label>
      {error ? (
        <p id="visit-confirm-wet-error" className="mt-1 text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
