'use client';

import { useState } from 'react';
import { CLAIM_ROLES, DAMAGE_TYPES, DESKTOP_ANSWERS, URGENCY_ANSWERS, VAT_ANSWERS, claimFormText } from '@/content/contact';
import { CLAIM_MAX } from '@/lib/enquiry-rules.mjs';
import { AnswerGroup, ClaimRow, choiceOf, type ClaimEntries } from '@/components/contact/claim-fields';
import { SignedInSender } from '@/components/contact/signed-in-sender';
import { TICKED, isInstructingRole, todayInUk } from '@/lib/contact-fields';
import { CLAIM_TOGGLE_FIELD, CLAIM_TOGGLE_VALUE } from '@/lib/native-form-state';

type ClaimDetailsProps = ClaimEntries & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** The checkbox that opens the claim part (posted with the form, so the part opens without JavaScript too). */
function ClaimToggle({ open, onOpenChange }: Pick<ClaimDetailsProps, 'open' | 'onOpenChange'>) {
  return (
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
  );
}

/** How urgent it is: getting worse, still habitable, someone vulnerable. */
function UrgencyQuestions(entries: ClaimEntries) {
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-300 bg-white p-3">
      <legend className="px-1 font-semibold text-brand-900">{claimFormText.urgencyLegend}</legend>
      <p className="text-sm text-slate-700">{claimFormText.urgencyHint}</p>
      <AnswerGroup {...entries} field="worsening" options={URGENCY_ANSWERS} />
      <AnswerGroup {...entries} field="habitable" options={URGENCY_ANSWERS} />
      <AnswerGroup
        {...entries}
        field="vulnerable"
        options={URGENCY_ANSWERS}
        hint={
          <>
            {claimFormText.vulnerableWhy}{' '}
            <a href="/privacy#what-we-do" className="prose-link">
              {claimFormText.vulnerablePrivacy}
            </a>
            .
          </>
        }
      />
    </fieldset>
  );
}

/** The date of the damage: its `max` (today in the UK) set when the field is first focused (see ClaimDetails). */
function DamageDateRow(entries: ClaimEntries) {
  const [today, setToday] = useState<string>();
  return (
    <ClaimRow
      {...entries}
      field="damageDate"
      render={(props) => <input {...props} type="date" max={today} onFocus={() => setToday(todayInUk())} />}
    />
  );
}

/** An instruction's policyholder and property: required while "Insurer" or "Loss adjuster" is chosen. */
function InstructionContacts(entries: ClaimEntries) {
  return (
    <div className="instruction-part space-y-4" data-testid="instruction-fields">
      <p className="font-semibold text-brand-900">{claimFormText.instructionLegend}</p>
      <p className="text-sm text-slate-700">{claimFormText.instructionHint}</p>
      <SignedInSender instructing={isInstructingRole(entries.values.claimRole)} />
      <ClaimRow
        {...entries}
        field="policyholderName"
        required
        render={(props) => <input {...props} type="text" maxLength={CLAIM_MAX.policyholderName} autoComplete="off" />}
      />
      <ClaimRow
        {...entries}
        field="policyholderPhone"
        required
        render={(props) => <input {...props} type="tel" maxLength={CLAIM_MAX.policyholderPhone} autoComplete="off" />}
      />
      <ClaimRow
        {...entries}
        field="propertyAddress"
        required
        render={(props) => <textarea {...props} rows={3} maxLength={CLAIM_MAX.propertyAddress} autoComplete="off" />}
      />
    </div>
  );
}

/** The rest of an instruction's terms: VAT, the excess, and whether a desktop assessment will do. */
function InstructionTerms(entries: ClaimEntries) {
  return (
    <div className="instruction-part space-y-4">
      <p className="font-semibold text-brand-900">{claimFormText.instructionMore}</p>
      <AnswerGroup {...entries} field="vatRegistered" options={VAT_ANSWERS} />
      <ClaimRow
        {...entries}
        field="excess"
        render={(props) => (
          <input
            {...props}
            type="text"
            inputMode="decimal"
            maxLength={CLAIM_MAX.excess}
            autoComplete="off"
            className={`${props.className} sm:max-w-48`}
          />
        )}
      />
      <AnswerGroup {...entries} field="desktopAssessment" options={DESKTOP_ANSWERS} />
    </div>
  );
}

/** Whether anything would help us work with the person: no phone calls, and what else would, in their words. */
function SupportNeeds(entries: ClaimEntries) {
  const { values, errors, onChange, register } = entries;
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
          {claimFormText.labels.noPhoneCalls}
        </label>
        {checkboxError ? (
          <p id={checkboxErrorId} className="mt-1 text-sm font-semibold text-red-700">
            {checkboxError}
          </p>
        ) : null}
      </div>
      <ClaimRow
        {...entries}
        field="supportNeeds"
        render={(props) => <textarea {...props} rows={3} maxLength={CLAIM_MAX.supportNeeds} autoComplete="off" />}
      />
    </fieldset>
  );
}

/**
 * The optional "insurance claim" part of the contact form: closed by default, opened by a checkbox.
 * Its fields are always in the page and shown by CSS while the box is ticked (`.claim-part` in
 * globals.css), so the part opens and is posted before or without JavaScript; an instruction's fields
 * (`.instruction-part`) the same way while "Insurer" or "Loss adjuster" is chosen. The date's `max` is
 * set in the browser when the field is first focused, before its picker opens: the prerendered page
 * carries no date that could differ from the visitor's day, and the time-zone rules it needs stay out
 * of the page's hydration (a long task on a slow phone).
 */
export function ClaimDetails({ open, onOpenChange, ...entries }: ClaimDetailsProps) {
  return (
    <div className="claim-part rounded-lg border border-slate-300 bg-slate-50 p-4">
      <ClaimToggle open={open} onOpenChange={onOpenChange} />
      <div id="claim-details">
        <fieldset className="mt-4 space-y-4">
          <legend className="font-semibold text-brand-900">{claimFormText.legend}</legend>
          <p className="text-sm text-slate-700">{claimFormText.hint}</p>
          <UrgencyQuestions {...entries} />
          <ClaimRow {...entries} field="claimRole" render={(props) => choiceOf(CLAIM_ROLES, props)} />
          <ClaimRow
            {...entries}
            field="insurer"
            render={(props) => <input {...props} type="text" maxLength={CLAIM_MAX.insurer} autoComplete="off" />}
          />
          <ClaimRow
            {...entries}
            field="claimReference"
            render={(props) => <input {...props} type="text" maxLength={CLAIM_MAX.claimReference} autoComplete="off" />}
          />
          <DamageDateRow {...entries} />
          <ClaimRow {...entries} field="damageType" render={(props) => choiceOf(DAMAGE_TYPES, props)} />
          <InstructionContacts {...entries} />
          <ClaimRow
            {...entries}
            field="postcode"
            render={(props) => (
              <input
                {...props}
                type="text"
                maxLength={CLAIM_MAX.postcode}
                autoComplete="postal-code"
                autoCapitalize="characters"
                spellCheck={false}
                className={`${props.className} sm:max-w-48`}
              />
            )}
          />
          <InstructionTerms {...entries} />
          <SupportNeeds {...entries} />
        </fieldset>
      </div>
    </div>
  );
}
