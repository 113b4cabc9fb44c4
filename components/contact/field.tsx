import type { ReactNode } from 'react';

/** What a field's control takes from its Field: its id, its error state tied to the message, its look. */
export type FieldControl = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
};

const CONTROL_CLASS = 'mt-1 block w-full rounded-md border px-3 py-2.5 text-slate-900 shadow-sm focus:border-brand-700';

/** One field of the enquiry form: its label (with a marker when required), its control, and its error under it. */
export function Field({
  id,
  label,
  required = false,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  error?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="block font-semibold text-brand-900">
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-1 text-red-700">
            *
          </span>
        ) : null}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
        className: `${CONTROL_CLASS} ${error ? 'border-red-700' : 'border-slate-500'}`,
      })}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
