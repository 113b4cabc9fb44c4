'use client';

import { useState, type ChangeEvent, type ReactNode } from 'react';
import { CLAIM_ROLES, DAMAGE_TYPES, DESKTOP_ANSWERS, URGENCY_ANSWERS, VAT_ANSWERS, claimFormText } from '@/content/contact';
import { CLAIM_MAX } from '@/lib/enquiry-rules.mjs';
import { Field, type FieldControl } from '@/components/contact/field';
import { TICKED, todayInUk, type ClaimField, type EnquiryFields, type FormErrors } from '@/lib/contact-fields';
import { CLAIM_TOGGLE_FIELD, CLAIM_TOGGLE_VALUE } from '@/lib/native-form-state';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What each claim control gets besides its Field's part. */
type ControlProps = {
  name: ClaimField;
  value: string;
  onChange: (event: ChangeEvent<Control>) => void;
  ref: (element: Control | null) => void;
  required: boolean;
};

type ClaimDetailsProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  values: EnquiryFields;
  errors: FormErrors;
  onChange: (field: ClaimField) => (event: ChangeEvent<Control>) => void;
  register: (field: ClaimField) => (element: Control | null) => void;
};

/**
 * The optional "insurance claim" part of the contact form: closed by default, opened by a checkbox.
 * Its fields are always in the page and shown by CSS while the box is ticked (`.claim-part` in
 * globals.css), so the part opens and is posted before or without JavaScript; an instruction's fields
 * (`.instruction-part`) the same way while "Insurer" or "Loss adjuster" is chosen. The date's `max` is
 * set in the browser when the field is first focused, before its picker opens: the prerendered page
 * carries no date that could differ from the visitor's day, and the time-zone rules it needs stay out
 * of the page's hydration (a long task on a slow phone).
 */
export function ClaimDetails({ open, onOpenChange, values, errors, onChange, register }: ClaimDetailsProps) {
  const { labels } = claimFormText;
  const [today, setToday] = useState<string>();

  function row(field: ClaimField, render: (props: FieldControl & ControlProps) => ReactNode, required = false) {
    return (
      <Field key={field} id={`claim-${field}`} label={labels[field]} error={errors[field]} required={required}>
        {(control) => render({ ...control, name: field, value: values[field], onChange: onChange(field), ref: register(field), required })}
      </Field>
    );
  }

  /** A yes/no question: a group of radio buttons under its legend, its error under them. */
  function answers(field: ClaimField, options: readonly { value: string; label: string }[], hint?: ReactNode) {
    const error = errors[field];
    const errorId = `claim-${field}-error`;
    const hintId = hint ? `claim-${field}-hint` : undefined;
    const describedBy = [hintId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
    const onFieldChange = onChange(field);
    return (
      <fieldset key={field} id={`claim-${field}`} className="answer-group">
        <legend className="font-semibold text-brand-900">{labels[field]}</legend>
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

  /** Whether anything would help us work with the person: no phone calls, and what else would, in their words. */
  function supportNeeds() {
    const hintId = 'claim-support-hint';
    const checkboxError = errors.noPhoneCalls;
    const checkboxErrorId = 'claim-noPhoneCalls-error';
    return (
      <fieldset id="claim-support" className="space-y-3 rounded-md border border-slate-300 bg-white p-3" aria-describedby={hintId}>
        <legend className="px-1 font-semibold text-brand-900">{claimFormText.supportLegend}</legend>
        <p id={hintId} className="text-sm text-slate-700">
          {claimFormText.supportHint}{' '}
          <a href="/privacy#what-we-do" className="prose-link">
            {claimFormText.supportPrivacy}
          </a>
          .
        </p>
        <div>
          <label className="inline-flex min-h-11 items-center gap-2 text-slate-900">
            <input
              id="claim-noPhoneCalls"
              type="checkbox"
              name="noPhoneCalls"
              value={TICKED}
              checked={values.noPhoneCalls === TICKED}
              onChange={onChange('noPhoneCalls')}
              ref={register('noPhoneCalls')}
              aria-invalid={checkboxError ? true : undefined}
              aria-describedby={checkboxError ? checkboxErrorId : undefined}
              className="h-5 w-5 shrink-0 accent-brand-700"
            />
            {labels.noPhoneCalls}
          </label>
          {checkboxError ? (
            <p id={checkboxErrorId} className="mt-1 text-sm font-semibold text-red-700">
              {checkboxError}
            </p>
          ) : null}
        </div>
        {row('supportNeeds', (props) => (
          <textarea {...props} rows={3} maxLength={CLAIM_MAX.supportNeeds} autoComplete="off" />
        ))}
      </fieldset>
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
            <fieldset className="space-y-3 rounded-md border border-slate-300 bg-white p-3">
              <legend className="px-1 font-semibold text-brand-900">{claimFormText.urgencyLegend}</legend>
              <p className="text-sm text-slate-700">{claimFormText.urgencyHint}</p>
              {answers('worsening', URGENCY_ANSWERS)}
              {answers('habitable', URGENCY_ANSWERS)}
              {answers(
                'vulnerable',
                URGENCY_ANSWERS,
                <>
                  {claimFormText.vulnerableWhy}{' '}
                  <a href="/privacy#what-we-do" className="prose-link">
                    {claimFormText.vulnerablePrivacy}
                  </a>
                  .
                </>,
              )}
            </fieldset>
            {row('claimRole', (props) => choice(CLAIM_ROLES, props))}
            {row('insurer', (props) => (
              <input {...props} type="text" maxLength={CLAIM_MAX.insurer} autoComplete="off" />
            ))}
            {row('claimReference', (props) => (
              <input {...props} type="text" maxLength={CLAIM_MAX.claimReference} autoComplete="off" />
            ))}
            {row('damageDate', (props) => (
              <input {...props} type="date" max={today} onFocus={() => setToday(todayInUk())} />
            ))}
            {row('damageType', (props) => choice(DAMAGE_TYPES, props))}
            <div className="instruction-part space-y-4" data-testid="instruction-fields">
              <p className="font-semibold text-brand-900">{claimFormText.instructionLegend}</p>
              <p className="text-sm text-slate-700">{claimFormText.instructionHint}</p>
              {row(
                'policyholderName',
                (props) => (
                  <input {...props} type="text" maxLength={CLAIM_MAX.policyholderName} autoComplete="off" />
                ),
                true,
              )}
              {row(
                'policyholderPhone',
                (props) => (
                  <input {...props} type="tel" maxLength={CLAIM_MAX.policyholderPhone} autoComplete="off" />
                ),
                true,
              )}
              {row(
                'propertyAddress',
                (props) => (
                  <textarea {...props} rows={3} maxLength={CLAIM_MAX.propertyAddress} autoComplete="off" />
                ),
                true,
              )}
            </div>
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
            <div className="instruction-part space-y-4">
              <p className="font-semibold text-brand-900">{claimFormText.instructionMore}</p>
              {answers('vatRegistered', VAT_ANSWERS)}
              {row('excess', (props) => (
                <input
                  {...props}
                  type="text"
                  inputMode="decimal"
                  maxLength={CLAIM_MAX.excess}
                  autoComplete="off"
                  className={`${props.className} sm:max-w-48`}
                />
              ))}
              {answers('desktopAssessment', DESKTOP_ANSWERS)}
            </div>
            {supportNeeds()}
          </fieldset>
        }
      </div>
    </div>
  );
}
