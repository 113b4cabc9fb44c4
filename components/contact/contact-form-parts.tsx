// The parts of the contact form (contact-form.tsx) that draw what the form's state holds.
import { Suspense, useCallback, type ChangeEvent, type Dispatch } from 'react';
import { ExternalLink } from '@/components/ui/external-link';
import { Field } from '@/components/contact/field';
import { EnquiryStatus } from '@/components/contact/enquiry-status';
import { SendProgress } from '@/components/contact/send-progress';
import { retryMessage, type FormAction, type FormState } from '@/components/contact/contact-form-state';
import { ClaimDetails } from '@/components/contact/claim-details';
import { PhotoPicker, type PickedPhoto } from '@/components/contact/photo-picker';
import { QueryPrefill } from '@/components/contact/query-prefill';
import type { ContactPrefill } from '@/lib/contact-prefill';
import { ENQUIRY_KEY_FIELD } from '@/lib/enquiry-key';
import { hasContent } from '@/lib/contact-draft';
import {
  CONTACT_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  type ContactField,
  type EnquiryField,
  type FormErrors,
  type FormField,
} from '@/lib/contact-fields';
import { CONTACT_MAX } from '@/lib/enquiry-rules.mjs';
import { contactFormText, sendingText } from '@/content/contact';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

type FieldSpec = { label: string; type: 'text' | 'email' | 'tel' | 'textarea'; required: boolean; autoComplete: string };

const FIELDS: Record<ContactField, FieldSpec> = {
  name: { label: contactFormText.labels.name, type: 'text', required: true, autoComplete: 'name' },
  email: { label: contactFormText.labels.email, type: 'email', required: true, autoComplete: 'email' },
  phone: { label: contactFormText.labels.phone, type: 'tel', required: false, autoComplete: 'tel' },
  subject: { label: contactFormText.labels.subject, type: 'text', required: true, autoComplete: 'off' },
  message: { label: contactFormText.labels.message, type: 'textarea', required: true, autoComplete: 'off' },
};

function RequiredNote() {
  return (
    <p className="text-sm text-slate-700">
      Fields marked{' '}
      <span aria-hidden="true" className="font-bold text-red-700">
        *
      </span>
      <span className="sr-only">required</span> are required.
    </p>
  );
}

/** The message's own fields: name, e-mail, phone, subject and message. */
function MessageFields({
  fields,
  errors,
  onChange,
  register,
}: {
  fields: Record<ContactField, string>;
  errors: FormErrors;
  onChange: (field: EnquiryField) => (event: ChangeEvent<Control>) => void;
  register: (field: FormField) => (element: Control | null) => void;
}) {
  return CONTACT_FIELDS.map((field) => {
    const spec = FIELDS[field];
    return (
      <Field key={field} id={`contact-${field}`} label={spec.label} required={spec.required} error={errors[field]}>
        {(control) => {
          const props = {
            ...control,
            name: field,
            value: fields[field],
            onChange: onChange(field),
            required: spec.required,
            maxLength: CONTACT_MAX[field],
            autoComplete: spec.autoComplete,
            ref: register(field),
          };
          return spec.type === 'textarea' ? <textarea {...props} rows={6} /> : <input {...props} type={spec.type} />;
        }}
      </Field>
    );
  });
}

/** A field people never see: a bot that fills it in is told apart from a person. */
function HoneypotField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
      <label htmlFor="contact-website">{contactFormText.honeypotLabel}</label>
      <input
        id="contact-website"
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** Send, and Clear form while there is something to clear and nothing is being sent or waiting. */
function FormButtons({
  submitting,
  waiting,
  canClear,
  onClear,
}: {
  submitting: boolean;
  waiting: boolean;
  canClear: boolean;
  onClear: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-70" disabled={submitting || waiting}>
        {submitting ? contactFormText.submitting : contactFormText.submit}
      </button>
      {canClear && !submitting && !waiting ? (
        <button
          type="button"
          onClick={onClear}
          className="rounded-md border border-slate-500 px-4 py-2.5 font-semibold text-brand-900 hover:bg-slate-100"
        >
          {sendingText.clear}
        </button>
      ) : null}
    </div>
  );
}

/** A field's change handler. A checkbox's value counts only while it is ticked, as when the form is posted. */
const fieldChange = (dispatch: Dispatch<FormAction>) => (field: EnquiryField) => (event: ChangeEvent<Control>) => {
  const { target } = event;
  const unticked = target instanceof HTMLInputElement && target.type === 'checkbox' && !target.checked;
  dispatch({ type: 'field', field, value: unticked ? '' : target.value });
};

type FormFieldsProps = {
  state: FormState;
  dispatch: Dispatch<FormAction>;
  register: (field: FormField) => (element: Control | null) => void;
  /** Whether photos can be sent (see ContactForm). */
  acceptsPhotos: boolean;
  onPhotosChange: (photos: PickedPhoto[]) => void;
};

/** What the visitor fills in: the message, the claim details and the photos, with the enquiry's key and the honeypot. */
export function FormFields({ state, dispatch, register, acceptsPhotos, onPhotosChange }: FormFieldsProps) {
  const { fields, claimOpen, enquiryKey, photos, honeypot, errors } = state;
  const onChange = fieldChange(dispatch);
  const applyPrefill = useCallback((prefill: ContactPrefill) => dispatch({ type: 'prefill', fields: prefill.fields }), [dispatch]);
  return (
    <>
      <RequiredNote />
      <MessageFields fields={fields} errors={errors} onChange={onChange} register={register} />
      <Suspense fallback={null}>
        <QueryPrefill onPrefill={applyPrefill} />
      </Suspense>
      <ClaimDetails
        open={claimOpen}
        onOpenChange={(open) => dispatch({ type: 'claimOpen', open })}
        values={fields}
        errors={errors}
        onChange={onChange}
        register={register}
      />
      {acceptsPhotos ? (
        <PhotoPicker
          photos={photos}
          onChange={onPhotosChange}
          error={errors[PHOTO_FIELD]}
          onProblem={(problem) => dispatch({ type: 'photoProblem', problem })}
          register={register(PHOTO_FIELD)}
        />
      ) : null}
      {/* Empty in the prerendered page (one file for every visitor); the form's own key once it runs. */}
      <input type="hidden" name={ENQUIRY_KEY_FIELD} value={enquiryKey} />
      <HoneypotField value={honeypot} onChange={(value) => dispatch({ type: 'honeypot', value })} />
    </>
  );
}

type SendingControlsProps = {
  state: FormState;
  emergencyPhone?: { display: string; e164: string };
  onClear: () => void;
  onCancel: () => void;
  onSendNow: () => void;
};

/** Everything under the fields about sending: the buttons, the upload's progress, what the form says about the enquiry. */
export function SendingControls({ state, emergencyPhone, onClear, onCancel, onSendNow }: SendingControlsProps) {
  const { fields, photos, status, submitting, progress, retry, clock } = state;
  return (
    <>
      <FormButtons submitting={submitting} waiting={retry !== null} canClear={hasContent(fields) || photos.length > 0} onClear={onClear} />
      {progress ? <SendProgress progress={progress} onCancel={onCancel} /> : null}
      <EnquiryStatus
        status={status}
        retryText={retryMessage(retry, clock)}
        emergencyPhone={emergencyPhone}
        onSendNow={onSendNow}
        onCancel={onCancel}
      />
    </>
  );
}

const disclosure = contactFormText.recaptchaDisclosure;

/** Google's terms, which a form protected by reCAPTCHA must show. */
export function RecaptchaDisclosure() {
  return (
    <p className="text-xs text-slate-700" data-testid="recaptcha-disclosure">
      {disclosure.before}{' '}
      <ExternalLink href="https://policies.google.com/privacy" className="prose-link">
        {disclosure.privacy}
      </ExternalLink>{' '}
      {disclosure.and}{' '}
      <ExternalLink href="https://policies.google.com/terms" className="prose-link">
        {disclosure.terms}
      </ExternalLink>{' '}
      {disclosure.after}
    </p>
  );
}
