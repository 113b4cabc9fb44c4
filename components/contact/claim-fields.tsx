// The building blocks of the claim part (claim-details.tsx): a field with its label and error, a group
// of answers under its legend, and a choice from a list.
import type { ChangeEvent, ReactNode } from 'react';
import { claimFormText } from '@/content/contact';
import { Field, type FieldControl } from '@/components/contact/field';
import type { ClaimField, EnquiryFields, FormErrors } from '@/lib/contact-fields';

export type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What each claim control gets besides its Field's part. */
export type ControlProps = {
  name: ClaimField;
  value: string;
  onChange: (event: ChangeEvent<Control>) => void;
  ref: (element: Control | null) => void;
  required: boolean;
};

/** The claim part's values and errors, and the form's handlers, handed to each of its sections. */
export type ClaimEntries = {
  values: EnquiryFields;
  errors: FormErrors;
  onChange: (field: ClaimField) => (event: ChangeEvent<Control>) => void;
  register: (field: ClaimField) => (element: Control | null) => void;
};

type Options = readonly { value: string; label: string }[];

/** One claim field: its Field (label, error) around the control `render` draws. */
export function ClaimRow({
  field,
  render,
  required = false,
  values,
  errors,
  onChange,
  register,
}: ClaimEntries & { field: ClaimField; render: (props: FieldControl & ControlProps) => ReactNode; required?: boolean }) {
  return (
    <Field id={`claim-${field}`} label={claimFormText.labels[field]} error={errors[field]} required={required}>
      {(control) => render({ ...control, name: field, value: values[field], onChange: onChange(field), ref: register(field), required })}
    </Field>
  );
}

/** A yes/no question: a group of radio buttons under its legend, its error under them. */
export function AnswerGroup({
  field,
  options,
  hint,
  values,
  errors,
  onChange,
  register,
}: ClaimEntries & { field: ClaimField; options: Options; hint?: ReactNode }) {
  const error = errors[field];
  const errorId = `claim-${field}-error`;
  const hintId = hint ? `claim-${field}-hint` : undefined;
  const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const onFieldChange = onChange(field);
  return (
    <fieldset id={`claim-${field}`} className="answer-group">
      <legend className="font-semibold text-brand-900">{claimFormText.labels[field]}</legend>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
        {options.map((option, index) => (
          <label key={option.value} className="inline-flex min-h-11 items-center gap-2 text-slate-900">
            <input
              type="radio"
              name={field}
              value={option.value}
              checked={values[field] === option.value}
              onChange={onFieldChange}
              ref={index === 0 ? register(field) : undefined}
              aria-describedby={describedBy}
              className="h-5 w-5 accent-brand-700"
            />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A choice from `options`, with the "choose" entry first. */
export function choiceOf(options: Options, props: FieldControl & ControlProps) {
  return (
    <select {...props}>
      <option value="">{claimFormText.choose}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
