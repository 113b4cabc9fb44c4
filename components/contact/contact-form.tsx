'use client';

import { Suspense, useActionState, useCallback, useLayoutEffect, useReducer, useRef, type ChangeEvent, type FormEvent } from 'react';
import { ExternalLink } from '@/components/ui/external-link';
import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { ClaimDetails } from '@/components/contact/claim-details';
import { QueryPrefill } from '@/components/contact/query-prefill';
import { SendProgress } from '@/components/contact/send-progress';
import { useEnquirySubmission } from '@/components/contact/use-enquiry-submission';
import { EnquiryStatus } from '@/components/contact/enquiry-status';
import type { ContactPrefill } from '@/lib/contact-prefill';
import { Field } from '@/components/contact/field';
import { PhotoPicker } from '@/components/contact/photo-picker';
import { enteredFields, formReducer, initialFormState, retryMessage } from '@/components/contact/contact-form-state';
import {
  CONTACT_FIELDS,
  FORM_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  type ContactField,
  type EnquiryField,
  type FormErrors,
  type FormField,
} from '@/lib/contact-fields';
import { hasContent } from '@/lib/contact-draft';
import { NATIVE_FORM_IDLE, NATIVE_FORM_PAGE, type NativeFormState } from '@/lib/native-form-state';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import { ENQUIRY_KEY_FIELD, newEnquiryKey } from '@/lib/enquiry-key';
import { apiBaseUrl, recaptchaSiteKey } from '@/lib/public-env';
import { CONTACT_MAX } from '@/lib/enquiry-rules.mjs';
import { contactFormText, sendingText } from '@/content/contact';

const disclosure = contactFormText.recaptchaDisclosure;

type FieldSpec = { label: string; type: 'text' | 'email' | 'tel' | 'textarea'; required: boolean; autoComplete: string };

const FIELDS: Record<ContactField, FieldSpec> = {
  name: { label: contactFormText.labels.name, type: 'text', required: true, autoComplete: 'name' },
  email: { label: contactFormText.labels.email, type: 'email', required: true, autoComplete: 'email' },
  phone: { label: contactFormText.labels.phone, type: 'tel', required: false, autoComplete: 'tel' },
  subject: { label: contactFormText.labels.subject, type: 'text', required: true, autoComplete: 'off' },
  message: { label: contactFormText.labels.message, type: 'textarea', required: true, autoComplete: 'off' },
};

type ContactFormProps = {
  siteKey?: string;
  endpoint?: string;
  /** Whether photos can be sent: not when NEXT_PUBLIC_API_URL points at another host, which may not accept files. */
  acceptsPhotos?: boolean;
  /**
   * The emergency line a visitor whose answers make the enquiry urgent is offered with the success
   * message (content/business.ts, handed down by the page so the business facts stay out of the form's script).
   */
  emergencyPhone?: { display: string; e164: string };
  /** The server action a browser posts the form to before its JavaScript runs (app/(site)/contact/actions.ts). */
  sendWithoutScript?: (previous: NativeFormState, form: FormData) => Promise<NativeFormState>;
  apiRequest?: typeof defaultApiRequest;
  logger?: Logger;
};

const noScriptAction = async (state: NativeFormState) => state;

/**
 * The contact form: name, e-mail, phone, subject and message checked as the visitor types and again on
 * Send, a reCAPTCHA token when a site key is set, one POST, its outcome shown; with the optional
 * insurance-claim details and photos.
 */
export function ContactForm({
  siteKey = recaptchaSiteKey,
  endpoint = `${apiBaseUrl}/api/contact`,
  acceptsPhotos = apiBaseUrl === '',
  emergencyPhone,
  sendWithoutScript = noScriptAction,
  apiRequest = defaultApiRequest,
  logger = defaultLogger,
}: ContactFormProps) {
  const [nativeState, nativeAction] = useActionState(sendWithoutScript, NATIVE_FORM_IDLE, NATIVE_FORM_PAGE);
  const [state, dispatch] = useReducer(formReducer, nativeState, initialFormState);
  const { fields, claimOpen, enquiryKey, photos, honeypot, errors, status, submitting, progress, retry, clock } = state;
  const inputs = useRef<Partial<Record<FormField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null>>>({});
  const form = useRef<HTMLFormElement | null>(null);

  // What the visitor typed, ticked or chose while the page was still plain HTML stays: the state starts
  // from the fields as they are, before anything renders them again (photos: PhotoPicker).
  useLayoutEffect(() => {
    if (!form.current) return;
    const entries = enteredFields(new FormData(form.current));
    dispatch({ type: 'takenOver', entries: { ...entries, enquiryKey: entries.enquiryKey || newEnquiryKey() } });
  }, []);

  const sending = useEnquirySubmission({
    state,
    dispatch,
    restoreDraft: nativeState.kind !== 'refused',
    siteKey,
    endpoint,
    acceptsPhotos,
    apiRequest,
    logger,
    onRefused: focusFirst,
  });

  function focusFirst(fieldErrors: FormErrors) {
    const first = FORM_FIELDS.find((field) => fieldErrors[field]);
    if (first) inputs.current[first]?.focus();
  }

  // A checkbox's value counts only while it is ticked, as when the form is posted.
  const onChange = (field: EnquiryField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const { target } = event;
    const unticked = target instanceof HTMLInputElement && target.type === 'checkbox' && !target.checked;
    dispatch({ type: 'field', field, value: unticked ? '' : target.value });
  };

  const register = (field: FormField) => (element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null) => {
    inputs.current[field] = element;
  };

  const applyPrefill = useCallback((prefill: ContactPrefill) => dispatch({ type: 'prefill', fields: prefill.fields }), []);

  function clearForm() {
    sending.clear();
    inputs.current.name?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The scripted send; the form's action (the native post) is only for a browser without it.
    event.preventDefault();
    await sending.submit();
  }

  const retryText = retryMessage(retry, clock);
  const anything = hasContent(fields) || photos.length > 0;

  return (
    <form
      ref={form}
      noValidate
      action={nativeAction}
      onSubmit={onSubmit}
      onFocus={sending.engage}
      onInput={sending.engage}
      aria-labelledby="contact-form-heading"
      className="space-y-5"
    >
      <p className="text-sm text-slate-700">
        Fields marked{' '}
        <span aria-hidden="true" className="font-bold text-red-700">
          *
        </span>
        <span className="sr-only">required</span> are required.
      </p>
      {CONTACT_FIELDS.map((field) => {
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
      })}
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
          onChange={sending.photosChanged}
          error={errors[PHOTO_FIELD]}
          onProblem={(problem) => dispatch({ type: 'photoProblem', problem })}
          register={register(PHOTO_FIELD)}
        />
      ) : null}
      {/* Empty in the prerendered page (one file for every visitor); the form's own key once it runs. */}
      <input type="hidden" name={ENQUIRY_KEY_FIELD} value={enquiryKey} />
      <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
        <label htmlFor="contact-website">{contactFormText.honeypotLabel}</label>
        <input
          id="contact-website"
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={honeypot}
          onChange={(event) => dispatch({ type: 'honeypot', value: event.target.value })}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className="btn-primary disabled:cursor-not-allowed disabled:opacity-70"
          disabled={submitting || retry !== null}
        >
          {submitting ? contactFormText.submitting : contactFormText.submit}
        </button>
        {anything && !submitting && !retry ? (
          <button
            type="button"
            onClick={clearForm}
            className="rounded-md border border-slate-500 px-4 py-2.5 font-semibold text-brand-900 hover:bg-slate-100"
          >
            {sendingText.clear}
          </button>
        ) : null}
      </div>
      {progress ? <SendProgress progress={progress} onCancel={sending.cancel} /> : null}
      <EnquiryStatus
        status={status}
        retryText={retryText}
        emergencyPhone={emergencyPhone}
        onSendNow={sending.sendNow}
        onCancel={sending.cancel}
      />
      {siteKey ? (
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
      ) : null}
    </form>
  );
}
