'use client';

import { useSyncExternalStore, type ChangeEvent, type ReactNode } from 'react';
import { CLAIM_MAX, CLAIM_ROLES, DAMAGE_TYPES, claimFormText } from '@/content/contact';
import { Field, type FieldControl } from '@/components/contact/field';
import { todayInUk, type ClaimField, type ClaimValues, type FormErrors } from '@/lib/contact-fields';
import { CLAIM_TOGGLE_FIELD, CLAIM_TOGGLE_VALUE } from '@/lib/native-form-state';

const noSubscription = () => () => undefined;

type Control = HTMLInputElement | HTMLSelectElement;

/** What each claim control gets besides its Field's part. */
type ControlProps = {
  name: ClaimField;
  value: string;
  onChange: (event: ChangeEvent<Control>) => void;
  ref: (element: Control | null) => void;
};

type ClaimDetailsProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  values: ClaimValues;
  errors: FormErrors;
  onChange: (field: ClaimField) => (event: ChangeEvent<Control>) => void;
  register: (field: ClaimField) => (element: Control | null) => void;
};

/**
 * The optional "insurance claim" part of the contact form: closed by default, opened by a checkbox.
 * Its fields are always in the page and shown by CSS while the box is ticked (`.claim-part` in
 * globals.css), so the part opens and is posted before or without JavaScript. The date's `max` is
 * set in the browser only: the prerendered page carries no date that could differ from the visitor's day.
 */
export function ClaimDetails({ open, onOpenChange, values, errors, onChange, register }: ClaimDetailsProps) {
  const { labels } = claimFormText;
  const today = useSyncExternalStore(noSubscription, todayInUk, () => undefined);

  function row(field: ClaimField, render: (props: FieldControl & ControlProps) => ReactNode) {
    return (
      <Field key={field} id={`claim-${field}`} label={labels[field]} error={errors[field]}>
        {(control) => render({ ...control, name: field, value: values[field], onChange: onChange(field), ref: register(field) })}
      </Field>
    );
  }

  function choice(options: readonly { value: string; label: string }[], props: FieldControl & ControlProps) {
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

  return (
    <div className="claim-part rounded-lg border border-slate-300 bg-slate-50 p-4">
      <div className="flex items-start gap-3">
        <input
          id="claim-toggle"
          type="checkbox"
          name={CLAIM_TOGGLE_FIELD}
          value={CLAIM_TOGGLE_VALUE}
          checked={open}
          onChange={(event) => onOpenChange(event.target.checked)}
          aria-controls="claim-details"
          className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
        />
        <label htmlFor="claim-toggle" className="font-semibold text-brand-900">
          {claimFormText.toggle}
        </label>
      </div>
      <div id="claim-details">
        {
          <fieldset className="mt-4 space-y-4">
            <legend className="font-semibold text-brand-900">{claimFormText.legend}</legend>
            <p className="text-sm text-slate-700">{claimFormText.hint}</p>
            {row('claimRole', (props) => choice(CLAIM_ROLES, props))}
            {row('insurer', (props) => (
              <input {...props} type="text" maxLength={CLAIM_MAX.insurer} autoComplete="off" />
            ))}
            {row('claimReference', (props) => (
              <input {...props} type="text" maxLength={CLAIM_MAX.claimReference} autoComplete="off" />
            ))}
            {row('damageDate', (props) => (
              <input {...props} type="date" max={today} />
            ))}
            {row('damageType', (props) => choice(DAMAGE_TYPES, props))}
            {row('postcode', (props) => (
              <input
                {...props}
                type="text"
                maxLength={CLAIM_MAX.postcode}
                autoComplete="postal-code"
                autoCapitalize="characters"
                spellCheck={false}
                className={`${props.className} sm:max-w-48`}
              />
            ))}
          </fieldset>
        }
      </div>
    </div>
  );
}
