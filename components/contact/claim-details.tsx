'use client';

import type { ChangeEvent, ReactNode } from 'react';
import { claimFormText } from '@/content/contact';
import { CLAIM_MAX, CLAIM_ROLES, DAMAGE_TYPES, todayInUk, type ClaimField, type ClaimValues } from '@/lib/claim-rules';
import type { FormErrors } from '@/lib/contact-rules';

type Control = HTMLInputElement | HTMLSelectElement;

type ClaimDetailsProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  values: ClaimValues;
  errors: FormErrors;
  onChange: (field: ClaimField) => (event: ChangeEvent<Control>) => void;
  register: (field: ClaimField) => (element: Control | null) => void;
};

const FIELD_CLASS = 'mt-1 block w-full rounded-md border px-3 py-2.5 text-slate-900 shadow-sm focus:border-brand-700';

/**
 * The optional "insurance claim" part of the contact form: closed by default, opened by a
 * checkbox. Its fields are rendered only while it is open, so the prerendered page carries no date
 * that could differ from the visitor's day (the date's `max`).
 */
export function ClaimDetails({ open, onOpenChange, values, errors, onChange, register }: ClaimDetailsProps) {
  const { labels } = claimFormText;

  function control(field: ClaimField) {
    const id = `claim-${field}`;
    const error = errors[field];
    return {
      id,
      name: field,
      value: values[field],
      onChange: onChange(field),
      ref: register(field),
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-error` : undefined,
      className: `${FIELD_CLASS} ${error ? 'border-red-700' : 'border-slate-500'}`,
    };
  }

  function choice(field: ClaimField, options: readonly { value: string; label: string }[]) {
    return (
      <select {...control(field)}>
        <option value="">{claimFormText.choose}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  }

  function row(field: ClaimField, input: ReactNode) {
    const error = errors[field];
    return (
      <div key={field}>
        <label htmlFor={`claim-${field}`} className="block font-semibold text-brand-900">
          {labels[field]}
        </label>
        {input}
        {error ? (
          <p id={`claim-${field}-error`} className="mt-1 text-sm font-semibold text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <div className="rounded-lg border border-slate-300 bg-slate-50 p-4">
      <div className="flex items-start gap-3">
        <input
          id="claim-toggle"
          type="checkbox"
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
        {open ? (
          <fieldset className="mt-4 space-y-4">
            <legend className="font-semibold text-brand-900">{claimFormText.legend}</legend>
            <p className="text-sm text-slate-700">{claimFormText.hint}</p>
            {row('claimRole', choice('claimRole', CLAIM_ROLES))}
            {row('insurer', <input {...control('insurer')} type="text" maxLength={CLAIM_MAX.insurer} autoComplete="off" />)}
            {row(
              'claimReference',
              <input {...control('claimReference')} type="text" maxLength={CLAIM_MAX.claimReference} autoComplete="off" />,
            )}
            {row('damageDate', <input {...control('damageDate')} type="date" max={todayInUk()} />)}
            {row('damageType', choice('damageType', DAMAGE_TYPES))}
            {row(
              'postcode',
              <input
                {...control('postcode')}
                type="text"
                maxLength={CLAIM_MAX.postcode}
                autoComplete="postal-code"
                autoCapitalize="characters"
                spellCheck={false}
                className={`${control('postcode').className} sm:max-w-48`}
              />,
            )}
          </fieldset>
        ) : null}
      </div>
    </div>
  );
}
