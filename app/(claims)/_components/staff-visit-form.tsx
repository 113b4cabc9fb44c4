'use client';

import { useActionState } from 'react';
import { Field } from '@/components/contact/field';
import { staffVisitText } from '@/content/drying';
import { BLANK_MACHINE_ROWS, BLANK_READING_ROWS, CONFIRM_WET_FIELD, type KnownLocation, type StaffVisitState } from '@/lib/drying-form';
import { useWetReadings } from '@/app/(claims)/_components/use-wet-readings';
import { enteredValuesOf } from '@/app/(claims)/_components/visit-form-values';
import { VisitMachineRows, type RunningMachine } from '@/app/(claims)/_components/visit-machine-rows';
import { VisitReadingRows } from '@/app/(claims)/_components/visit-reading-rows';
import { WetReadingConfirmation } from '@/app/(claims)/_components/wet-reading-confirmation';

const IDLE: StaffVisitState = { kind: 'idle' };

/**
 * The company's record of one drying visit, on the staff page: the visit's time, a row per location
 * (those already recorded filled in, the new reading left to type), a row per machine still running
 * (named by its stored id: only a new count, an off time or a meter reading changes it) and rows for
 * new machines. On a claim at `dried`, a reading typed above its goal is flagged beside it and needs
 * the confirming box ticked (the server asks for it too, without the script). Posted like the stage's
 * Save: once per form token, before and without the page's script.
 */
export function StaffVisitForm({
  save,
  page,
  formToken,
  locations,
  machines,
  dried,
}: {
  save: (previous: StaffVisitState, form: FormData) => Promise<StaffVisitState>;
  /** The page's own path: the form's action attribute before hydration. */
  page: string;
  formToken: string;
  locations: readonly KnownLocation[];
  /** Machines still running, with their switched-on time in words, to the second and with its zone. */
  machines: readonly RunningMachine[];
  /** The claim is at `dried`: a reading above its goal moves it back to drying, once confirmed. */
  dried: boolean;
}) {
  const [state, action, pending] = useActionState(save, IDLE, page);
  const refused = state.kind === 'refused' ? state : null;
  const text = staffVisitText;
  // After a refusal, what was entered; otherwise the rows the record already knows.
  const entered = enteredValuesOf(refused);
  const { value, error } = entered;
  const readingRows = locations.length + BLANK_READING_ROWS;
  const { checkWet, wetGoal, anyWet } = useWetReadings(dried, readingRows);
  const askConfirm = anyWet || error(CONFIRM_WET_FIELD) !== undefined;
  const token = state.kind === 'saved' ? state.formToken : refused?.values.formToken || formToken;
  return (
    <form action={action} onInput={checkWet} className="max-w-xl space-y-5" data-testid="staff-visit">
      <input type="hidden" name="formToken" value={token} />
      <p className="text-slate-700">{text.intro}</p>
      <p className="text-slate-700">{text.numberHint}</p>
      <Field id="visit-at" label={text.visitAt} required error={error('visitAt')}>
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            name="visitAt"
            defaultValue={value('visitAt')}
            key={`at-${value('visitAt')}`}
            required
          />
        )}
      </Field>
      <VisitReadingRows rows={readingRows} locations={locations} entered={entered} wetGoal={wetGoal} />
      <VisitMachineRows rows={machines.length + BLANK_MACHINE_ROWS} machines={machines} entered={entered} />
      {askConfirm ? <WetReadingConfirmation error={error(CONFIRM_WET_FIELD)} /> : null}
      <button type="submit" className="btn-primary" disabled={pending}>
        {text.submit}
      </button>
      <div role={refused ? 'alert' : 'status'} className={refused ? 'font-semibold text-red-700' : 'font-semibold text-green-800'}>
        {state.kind === 'idle' ? null : state.message}
      </div>
    </form>
  );
}
