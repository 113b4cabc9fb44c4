'use client';

import { Suspense, useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ExternalLink } from '@/components/ui/external-link';
import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { contactOutcome, type ContactOutcome } from '@/lib/contact-outcome';
import { ClaimDetails } from '@/components/contact/claim-details';
import { QueryPrefill } from '@/components/contact/query-prefill';
import type { ContactPrefill } from '@/lib/contact-prefill';
import { attributionFor } from '@/lib/visit-attribution';
import { Field } from '@/components/contact/field';
import { PhotoPicker, type PickedPhoto } from '@/components/contact/photo-picker';
import { downscaleForUpload } from '@/lib/photo-downscale';
import {
  CONTACT_FIELDS,
  EMPTY_CLAIM,
  FORM_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  isClaimField,
  type ClaimField,
  type ClaimValues,
  type ContactField,
  type ContactValues,
  type FormErrors,
  type FormField,
} from '@/lib/contact-fields';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import { apiBaseUrl, recaptchaSiteKey } from '@/lib/public-env';
import { loadRecaptcha, recaptchaToken } from '@/lib/recaptcha-client';
import { CONTACT_MAX, CONTACT_OUTCOME_MESSAGES, contactFormText, photoText, referenceText } from '@/content/contact';

const LOG_SOURCE = 'contact-form';
const disclosure = contactFormText.recaptchaDisclosure;

type FieldSpec = { label: string; type: 'text' | 'email' | 'tel' | 'textarea'; required: boolean; autoComplete: string };

const FIELDS: Record<ContactField, FieldSpec> = {
  name: { label: contactFormText.labels.name, type: 'text', required: true, autoComplete: 'name' },
  email: { label: contactFormText.labels.email, type: 'email', required: true, autoComplete: 'email' },
  phone: { label: contactFormText.labels.phone, type: 'tel', required: false, autoComplete: 'tel' },
  subject: { label: contactFormText.labels.subject, type: 'text', required: true, autoComplete: 'off' },
  message: { label: contactFormText.labels.message, type: 'textarea', required: true, autoComplete: 'off' },
};

const EMPTY: ContactValues = { name: '', email: '', phone: '', subject: '', message: '' };

type Status =
  { kind: 'idle' } | { kind: 'success'; message: string; reference?: string; photosNotKept?: boolean } | { kind: 'error'; message: string };

type ContactFormProps = {
  siteKey?: string;
  endpoint?: string;
  /** Whether photos can be sent: not when NEXT_PUBLIC_API_URL points at another host, which may not accept files. */
  acceptsPhotos?: boolean;
  apiRequest?: typeof defaultApiRequest;
  logger?: Logger;
};

/** The server's whole-request time-out (server/server-limits.mjs) is 30 s: wait for it, not the usual 15 s. */
const PHOTO_UPLOAD_TIMEOUT_MS = 30_000;

async function multipartBody(fields: Record<string, string>, photos: readonly PickedPhoto[]): Promise<FormData> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const photo of photos) {
    const file = await downscaleForUpload(photo.file);
    body.append(PHOTO_FIELD, file, photo.file.name);
  }
  return body;
}

type ContactSchemaModule = typeof import('@/lib/contact-schema');
let contactSchemaModule: Promise<ContactSchemaModule> | null = null;

/** The form's one schema carries zod, most of the form's weight: fetched when a visitor starts on the form, not with the page. */
function loadContactSchema(): Promise<ContactSchemaModule> {
  contactSchemaModule ??= import('@/lib/contact-schema').catch((error: unknown) => {
    contactSchemaModule = null;
    throw error;
  });
  return contactSchemaModule;
}

/** The values that were given: the spec's JSON body carries the optional fields only when they are set. */
const given = <T extends Record<string, string>>(values: T | null): Partial<T> =>
  values ? (Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as Partial<T>) : {};

/** The contact form (SPEC sections 2, 4, 5, 7.1 and 8), with the optional insurance-claim details and photos. */
export function ContactForm({
  siteKey = recaptchaSiteKey,
  endpoint = `${apiBaseUrl}/api/contact`,
  acceptsPhotos = apiBaseUrl === '',
  apiRequest = defaultApiRequest,
  logger = defaultLogger,
}: ContactFormProps) {
  const [values, setValues] = useState<ContactValues>(EMPTY);
  const [honeypot, setHoneypot] = useState('');
  const [claimOpen, setClaimOpen] = useState(false);
  const [claim, setClaim] = useState<ClaimValues>(EMPTY_CLAIM);
  const [photos, setPhotos] = useState<PickedPhoto[]>([]);
  const [errors, setErrors] = useState<FormErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef<Partial<Record<FormField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null>>>({});

  function engage() {
    // Google's script and the form's checks are fetched when the visitor first engages the form, never on page load.
    loadContactSchema().catch(() => undefined);
    if (siteKey) loadRecaptcha(siteKey).catch(() => undefined);
  }

  function focusFirst(fieldErrors: FormErrors) {
    const first = FORM_FIELDS.find((field) => fieldErrors[field]);
    if (first) inputs.current[first]?.focus();
  }

  function clearError(field: FormField) {
    setErrors((current) => {
      if (!current[field]) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  }

  function onChange(field: ContactField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      clearError(field);
    };
  }

  function onClaimChange(field: ClaimField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const value = event.target.value;
      setClaim((current) => ({ ...current, [field]: value }));
      clearError(field);
    };
  }

  const register = (field: FormField) => (element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null) => {
    inputs.current[field] = element;
  };

  /** A link asked for the claim part open, with a type of damage or a role chosen (lib/contact-prefill.ts). */
  const applyPrefill = useCallback((prefill: ContactPrefill) => {
    setClaimOpen(true);
    setClaim((current) => ({ ...current, ...prefill.claim }));
  }, []);

  /** The claim details are kept while the part is closed but neither checked nor sent. */
  function onClaimOpenChange(open: boolean) {
    setClaimOpen(open);
    if (!open) setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !isClaimField(field))));
  }

  function report(outcome: ContactOutcome, statusCode: number | null) {
    if (outcome.kind === 'success') {
      logger.info('Contact form submitted', { source: LOG_SOURCE, statusCode, metadata: { outcome: 'success' } });
    } else {
      // Never the message text or contact details: only which fields the server objected to.
      logger.error(`Contact form submission failed: ${outcome.message}`, {
        source: LOG_SOURCE,
        statusCode,
        metadata: { outcome: 'error', fieldErrors: Object.keys(outcome.fieldErrors) },
      });
    }
  }

  /** One submission at a time, from the first click on: the checks may still be loading. */
  const busy = useRef(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    try {
      await submit();
    } finally {
      busy.current = false;
    }
  }

  async function submit() {
    let validateContact: ContactSchemaModule['validateContact'];
    try {
      ({ validateContact } = await loadContactSchema());
    } catch (error) {
      logger.error('Contact form checks could not be loaded', { source: LOG_SOURCE, category: 'network', error });
      setStatus({ kind: 'error', message: CONTACT_OUTCOME_MESSAGES.failed });
      return;
    }
    const checked = validateContact(claimOpen ? { ...values, ...claim } : values);
    if (!checked.values) {
      setStatus({ kind: 'idle' });
      setErrors(checked.errors);
      focusFirst(checked.errors);
      return;
    }

    setSubmitting(true);
    setStatus({ kind: 'idle' });
    setErrors({});
    let outcome: ContactOutcome;
    let statusCode: number | null = null;
    try {
      let token = '';
      if (siteKey) {
        try {
          token = await recaptchaToken(siteKey);
        } catch (error) {
          logger.error(CONTACT_OUTCOME_MESSAGES.recaptchaLoad, { source: LOG_SOURCE, category: 'network', error });
          outcome = { kind: 'error', message: CONTACT_OUTCOME_MESSAGES.failed, fieldErrors: {} };
          setStatus({ kind: 'error', message: outcome.message });
          return;
        }
      }
      const sending = acceptsPhotos && photos.length > 0;
      try {
        // The spec's JSON body; the claim details only those given, and only when any was.
        const fields = {
          ...checked.values,
          ...given(checked.claim),
          ...given(attributionFor(window.location.pathname)),
          recaptchaToken: token,
          [HONEYPOT_FIELD]: honeypot,
        };
        const response = await apiRequest(endpoint, {
          method: 'POST',
          // With photos, the same fields and the files as multipart/form-data.
          ...(sending ? { formData: await multipartBody(fields, photos), timeoutMs: PHOTO_UPLOAD_TIMEOUT_MS } : { json: fields }),
          skipErrorLogging: true,
        });
        statusCode = response.status;
        outcome = contactOutcome({ status: response.status, body: response.data }, { sentPhotos: sending });
      } catch (error) {
        if (error instanceof ApiError && error.status !== undefined) {
          statusCode = error.status;
          outcome = contactOutcome({ status: error.status, body: error.body }, { sentPhotos: sending });
        } else {
          outcome = contactOutcome({ status: 'no-answer' });
        }
      }
      report(outcome, statusCode);
      if (outcome.kind === 'success') {
        setValues(EMPTY);
        setClaim(EMPTY_CLAIM);
        setClaimOpen(false);
        photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
        setPhotos([]);
        setHoneypot('');
        setStatus({ kind: 'success', message: outcome.message, reference: outcome.reference, photosNotKept: outcome.photosNotKept });
      } else {
        setErrors(outcome.fieldErrors);
        setStatus({ kind: 'error', message: outcome.message });
        focusFirst(outcome.fieldErrors);
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} onFocus={engage} onInput={engage} aria-labelledby="contact-form-heading" className="space-y-5">
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
                value: values[field],
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
        onOpenChange={onClaimOpenChange}
        values={claim}
        errors={errors}
        onChange={onClaimChange}
        register={register}
      />
      {acceptsPhotos ? (
        <PhotoPicker
          photos={photos}
          onChange={(next) => {
            setPhotos(next);
            clearError(PHOTO_FIELD);
          }}
          error={errors[PHOTO_FIELD]}
          onProblem={(problem) => setErrors((current) => ({ ...current, [PHOTO_FIELD]: problem }))}
          register={register(PHOTO_FIELD)}
        />
      ) : null}
      <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
        <label htmlFor="contact-website">{contactFormText.honeypotLabel}</label>
        <input
          id="contact-website"
          name={HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={honeypot}
          onChange={(event) => setHoneypot(event.target.value)}
        />
      </div>
      <div>
        <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-70" disabled={submitting}>
          {submitting ? contactFormText.submitting : contactFormText.submit}
        </button>
      </div>
      <div role="status" className="min-h-0">
        {status.kind === 'success' ? (
          <div className="rounded-md border border-green-700 bg-green-50 p-4 text-green-900">
            <p className="font-semibold">{status.message}</p>
            {status.reference ? (
              <p className="mt-2" data-testid="enquiry-reference">
                {referenceText.before} <strong className="font-mono text-lg tracking-wider">{status.reference}</strong>.{' '}
                {referenceText.after}
              </p>
            ) : null}
            {status.photosNotKept ? (
              <p className="mt-2" data-testid="photos-not-kept">
                {photoText.notKept}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
      <div role="alert">
        {status.kind === 'error' ? (
          <p className="rounded-md border border-red-700 bg-red-50 p-4 font-semibold text-red-900">{status.message}</p>
        ) : null}
      </div>
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
