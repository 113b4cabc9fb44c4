'use client';

import { Suspense, useActionState, useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ExternalLink } from '@/components/ui/external-link';
import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { contactOutcome, type ContactOutcome } from '@/lib/contact-outcome';
import { ClaimDetails } from '@/components/contact/claim-details';
import { QueryPrefill } from '@/components/contact/query-prefill';
import { SendProgress, type UploadProgress } from '@/components/contact/send-progress';
import type { ContactPrefill } from '@/lib/contact-prefill';
import { attributionFor } from '@/lib/visit-attribution';
import { Field } from '@/components/contact/field';
import { PhotoPicker, photoFromDraft, type PickedPhoto } from '@/components/contact/photo-picker';
import {
  CLAIM_FIELDS,
  CONTACT_FIELDS,
  EMPTY_CLAIM,
  FORM_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  isClaimField,
  isUrgent,
  type ClaimField,
  type ClaimValues,
  type ContactField,
  type ContactValues,
  type FormErrors,
  type FormField,
} from '@/lib/contact-fields';
import {
  clearDraft,
  hasContent,
  loadDraftFields,
  loadDraftPhotos,
  removeDraftPhoto,
  saveDraftFields,
  saveDraftPhoto,
} from '@/lib/contact-draft';
import { NATIVE_FORM_IDLE, NATIVE_FORM_PAGE, type NativeFormState } from '@/lib/native-form-state';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import { apiBaseUrl, recaptchaSiteKey } from '@/lib/public-env';
import { loadRecaptcha, recaptchaToken } from '@/lib/recaptcha-client';
import {
  CONTACT_MAX,
  CONTACT_OUTCOME_MESSAGES,
  CONTACT_RESPONSES,
  contactFormText,
  photoText,
  referenceText,
  sendingText,
  urgentCallText,
} from '@/content/contact';

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
  | { kind: 'idle' }
  | { kind: 'success'; message: string; reference?: string; photosNotKept?: boolean; urgent?: boolean }
  | { kind: 'error'; message: string }
  /** A plain note (restored, cleared, cancelled): announced politely, not as an error. */
  | { kind: 'note'; message: string };

/** A send that failed for want of a connection or a free slot, and when it is tried again by itself. */
type Retry = { reason: 'lost' | 'offline' | 'busy'; at: number };

/** After a network failure the form keeps trying for this long, the delay doubling from the first. */
const RETRY_FOR_MS = 5 * 60_000;
const FIRST_RETRY_DELAY_MS = 2_000;
const LONGEST_RETRY_DELAY_MS = 60_000;
/** A busy server's Retry-After is honoured up to this. */
const LONGEST_BUSY_WAIT_S = 120;

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
  /** The server action a browser posts the form to before its JavaScript runs (app/contact/actions.ts). */
  sendWithoutScript?: (previous: NativeFormState, form: FormData) => Promise<NativeFormState>;
  apiRequest?: typeof defaultApiRequest;
  logger?: Logger;
};

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

/**
 * One press of Send: what was checked then, sent again exactly as it was on every retry, so the server
 * recognises a retry as the same enquiry (same content from the same client within ten minutes).
 */
type Submission = {
  fields: Record<string, string>;
  photos: readonly PickedPhoto[];
  firstFailureAt: number | null;
  nextDelayMs: number;
  /** The visitor's answers make it urgent: the success message offers the emergency line. */
  urgent: boolean;
};

const noScriptAction = async (state: NativeFormState) => state;

/** The values a native post that was refused brings back into the form (server-rendered). */
function refusedValues(state: NativeFormState) {
  if (state.kind !== 'refused') return null;
  const text = (field: FormField) => state.values[field] ?? '';
  return {
    values: Object.fromEntries(CONTACT_FIELDS.map((field) => [field, text(field)])) as ContactValues,
    claim: Object.fromEntries(CLAIM_FIELDS.map((field) => [field, text(field)])) as ClaimValues,
    claimOpen: state.claimOpen,
  };
}

/** The contact form (SPEC sections 2, 4, 5, 7.1 and 8), with the optional insurance-claim details and photos. */
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
  const [values, setValues] = useState<ContactValues>(() => refusedValues(nativeState)?.values ?? EMPTY);
  const [honeypot, setHoneypot] = useState('');
  const [claimOpen, setClaimOpen] = useState(() => refusedValues(nativeState)?.claimOpen ?? false);
  const [claim, setClaim] = useState<ClaimValues>(() => refusedValues(nativeState)?.claim ?? EMPTY_CLAIM);
  const [photos, setPhotos] = useState<PickedPhoto[]>([]);
  const [errors, setErrors] = useState<FormErrors>(() => (nativeState.kind === 'refused' ? nativeState.errors : {}));
  const [status, setStatus] = useState<Status>(() =>
    nativeState.kind === 'refused' ? { kind: 'error', message: nativeState.message } : { kind: 'idle' },
  );
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [retry, setRetry] = useState<Retry | null>(null);
  const [clock, setClock] = useState(0);
  const inputs = useRef<Partial<Record<FormField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null>>>({});
  const submission = useRef<Submission | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** False until the draft kept on this device (if any) is back in the form: nothing is saved over it before. */
  const draftLoaded = useRef(false);

  function engage() {
    // Google's script and the form's checks are fetched when the visitor first engages the form, never on page load.
    loadContactSchema().catch(() => undefined);
    if (siteKey) loadRecaptcha(siteKey).catch(() => undefined);
  }

  // The draft kept on this device comes back after a reload, a closed tab or a crash (lib/contact-draft.ts).
  useEffect(() => {
    if (nativeState.kind === 'refused') {
      draftLoaded.current = true;
      return;
    }
    let cancelled = false;
    void (async () => {
      const fields = loadDraftFields();
      const kept = await loadDraftPhotos();
      if (cancelled) return;
      draftLoaded.current = true;
      if (!fields && kept.length === 0) return;
      if (fields) {
        setValues(fields.values);
        setClaim(fields.claim);
        setClaimOpen(fields.claimOpen);
      }
      if (kept.length > 0) setPhotos(kept.map(photoFromDraft));
      setStatus({ kind: 'note', message: sendingText.restored });
    })();
    return () => {
      cancelled = true;
    };
  }, [nativeState.kind]);

  useEffect(() => {
    if (!draftLoaded.current) return;
    const timer = setTimeout(() => saveDraftFields({ savedAt: Date.now(), values, claim, claimOpen }), 300);
    return () => clearTimeout(timer);
  }, [values, claim, claimOpen]);

  // A send waiting to be tried again: at once when the browser is back online; a countdown meanwhile.
  useEffect(() => {
    if (!retry) return;
    const tick = setInterval(() => setClock(Date.now()), 1000);
    const online = () => {
      if (retry.reason !== 'busy') void attempt();
    };
    window.addEventListener('online', online);
    return () => {
      clearInterval(tick);
      window.removeEventListener('online', online);
    };
    // attempt reads refs only; re-subscribing on each render would restart the countdown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [retry]);

  useEffect(
    () => () => {
      clearTimeout(retryTimer.current);
      inFlight.current?.abort();
    },
    [],
  );

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
    return (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
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

  function onPhotosChange(next: PickedPhoto[]) {
    const kept = new Set(next.map((photo) => photo.id));
    for (const photo of photos) if (!kept.has(photo.id)) void removeDraftPhoto(photo.id);
    const known = new Set(photos.map((photo) => photo.id));
    for (const photo of next) {
      if (known.has(photo.id)) continue;
      // Kept on the device as it will be sent: downscaled, without its metadata.
      void photo.prepared.then((file) =>
        saveDraftPhoto({ id: photo.id, name: file.name, type: file.type, blob: file, savedAt: Date.now() }),
      );
    }
    setPhotos(next);
    clearError(PHOTO_FIELD);
  }

  function emptyForm() {
    setValues(EMPTY);
    setClaim(EMPTY_CLAIM);
    setClaimOpen(false);
    photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
    setPhotos([]);
    setHoneypot('');
    setErrors({});
    void clearDraft();
  }

  function clearForm() {
    stopRetrying();
    emptyForm();
    setStatus({ kind: 'note', message: sendingText.cleared });
    inputs.current.name?.focus();
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

  function stopRetrying() {
    clearTimeout(retryTimer.current);
    setRetry(null);
  }

  /** Tries the same submission again later: after Retry-After when the server is busy, else after a doubling delay. */
  function scheduleRetry(reason: Retry['reason'], retryAfterSeconds?: number) {
    const current = submission.current;
    if (!current) return;
    const now = Date.now();
    current.firstFailureAt ??= now;
    if (now - current.firstFailureAt > RETRY_FOR_MS) {
      // Given up: the spec's failure for no answer; everything typed stays.
      submission.current = null;
      setRetry(null);
      setStatus({ kind: 'error', message: CONTACT_OUTCOME_MESSAGES.failed });
      return;
    }
    let delay: number;
    if (reason === 'busy') delay = Math.min(retryAfterSeconds ?? 30, LONGEST_BUSY_WAIT_S) * 1000;
    else {
      delay = current.nextDelayMs;
      current.nextDelayMs = Math.min(current.nextDelayMs * 2, LONGEST_RETRY_DELAY_MS);
    }
    clearTimeout(retryTimer.current);
    retryTimer.current = setTimeout(() => void attempt(), delay);
    setClock(now);
    setRetry({ reason, at: now + delay });
    setStatus({ kind: 'idle' });
  }

  /** One try at sending the current submission: a fresh reCAPTCHA token each time (they are single-use). */
  async function attempt() {
    const current = submission.current;
    if (!current || inFlight.current) return;
    clearTimeout(retryTimer.current);
    const controller = new AbortController();
    inFlight.current = controller;
    setSubmitting(true);
    setRetry(null);
    setStatus({ kind: 'idle' });
    let outcome: ContactOutcome;
    let statusCode: number | null = null;
    const sending = current.photos.length > 0;
    try {
      let token = '';
      if (siteKey) {
        try {
          token = await recaptchaToken(siteKey);
        } catch (error) {
          if (current.firstFailureAt !== null || navigator.onLine === false) {
            // Google's script cannot load while the connection is down: the same failure as the send's.
            scheduleRetry(navigator.onLine === false ? 'offline' : 'lost');
            return;
          }
          logger.error(CONTACT_OUTCOME_MESSAGES.recaptchaLoad, { source: LOG_SOURCE, category: 'network', error });
          setStatus({ kind: 'error', message: CONTACT_OUTCOME_MESSAGES.failed });
          return;
        }
      }
      if (controller.signal.aborted) return;
      const fields = { ...current.fields, recaptchaToken: token };
      try {
        let response;
        if (sending) {
          const body = new FormData();
          for (const [name, value] of Object.entries(fields)) body.append(name, value);
          for (const photo of current.photos) body.append(PHOTO_FIELD, await photo.prepared, photo.file.name);
          const startedAt = Date.now();
          response = await apiRequest(endpoint, {
            method: 'POST',
            formData: body,
            skipErrorLogging: true,
            signal: controller.signal,
            onUploadProgress: (sent, total) => setProgress({ sent, total, startedAt, at: Date.now() }),
          });
        } else {
          response = await apiRequest(endpoint, { method: 'POST', json: fields, skipErrorLogging: true, signal: controller.signal });
        }
        statusCode = response.status;
        outcome = contactOutcome({ status: response.status, body: response.data }, { sentPhotos: sending });
      } catch (error) {
        if (error instanceof ApiError && error.status === undefined) {
          if (error.cancelled) return;
          scheduleRetry(navigator.onLine === false ? 'offline' : 'lost');
          return;
        }
        if (error instanceof ApiError && error.status !== undefined) {
          const body = error.body as { message?: unknown } | undefined;
          const busy = error.status === 503 || (error.status === 429 && body?.message === CONTACT_RESPONSES.uploadInProgress);
          if (busy && error.retryAfterSeconds !== undefined) {
            scheduleRetry('busy', error.retryAfterSeconds);
            return;
          }
          statusCode = error.status;
          outcome = contactOutcome({ status: error.status, body: error.body }, { sentPhotos: sending });
        } else {
          outcome = contactOutcome({ status: 'no-answer' });
        }
      }
      report(outcome, statusCode);
      submission.current = null;
      if (outcome.kind === 'success') {
        emptyForm();
        setStatus({
          kind: 'success',
          message: outcome.message,
          reference: outcome.reference,
          photosNotKept: outcome.photosNotKept,
          urgent: current.urgent,
        });
      } else {
        setErrors(outcome.fieldErrors);
        setStatus({ kind: 'error', message: outcome.message });
        focusFirst(outcome.fieldErrors);
      }
    } finally {
      if (inFlight.current === controller) inFlight.current = null;
      setProgress(null);
      setSubmitting(false);
    }
  }

  function cancel() {
    submission.current = null;
    stopRetrying();
    inFlight.current?.abort();
    setStatus({ kind: 'note', message: sendingText.cancelled });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The scripted send; the form's action (the native post) is only for a browser without it.
    event.preventDefault();
    if (submission.current) return;
    let validateContact: ContactSchemaModule['validateContact'];
    const pending: Submission = { fields: {}, photos: [], firstFailureAt: null, nextDelayMs: FIRST_RETRY_DELAY_MS, urgent: false };
    // One submission at a time, from the first click on: the checks may still be loading.
    submission.current = pending;
    try {
      ({ validateContact } = await loadContactSchema());
    } catch (error) {
      submission.current = null;
      logger.error('Contact form checks could not be loaded', { source: LOG_SOURCE, category: 'network', error });
      setStatus({ kind: 'error', message: CONTACT_OUTCOME_MESSAGES.failed });
      return;
    }
    const checked = validateContact(claimOpen ? { ...values, ...claim } : values);
    if (!checked.values) {
      submission.current = null;
      setStatus({ kind: 'idle' });
      setErrors(checked.errors);
      focusFirst(checked.errors);
      return;
    }
    setErrors({});
    // The spec's JSON body; the claim details only those given, and only when any was.
    pending.fields = {
      ...checked.values,
      ...given(checked.claim),
      ...given(attributionFor(window.location.pathname)),
      [HONEYPOT_FIELD]: honeypot,
    };
    pending.photos = acceptsPhotos ? photos : [];
    pending.urgent = isUrgent(checked.claim);
    await attempt();
  }

  const waitSeconds = retry ? Math.max(0, Math.ceil((retry.at - Math.max(clock, 0)) / 1000)) : 0;
  const retryMessage = retry
    ? retry.reason === 'busy'
      ? sendingText.busy(waitSeconds)
      : retry.reason === 'offline'
        ? sendingText.offline
        : sendingText.lost(waitSeconds)
    : null;
  const anything = hasContent(values, claim) || photos.length > 0;

  return (
    <form
      noValidate
      action={nativeAction}
      onSubmit={onSubmit}
      onFocus={engage}
      onInput={engage}
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
          onChange={onPhotosChange}
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
      {progress ? <SendProgress progress={progress} onCancel={cancel} /> : null}
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
            {status.urgent && emergencyPhone ? (
              <div className="mt-3 rounded-md border border-red-700 bg-white p-3 text-red-950" data-testid="urgent-call">
                <p className="font-semibold">{urgentCallText.heading}</p>
                <p className="mt-1">{urgentCallText.text}</p>
                <p className="mt-3">
                  <a href={`tel:${emergencyPhone.e164}`} className="btn-primary">
                    {urgentCallText.link(emergencyPhone.display)}
                  </a>
                </p>
              </div>
            ) : null}
            {status.photosNotKept ? (
              <p className="mt-2" data-testid="photos-not-kept">
                {photoText.notKept}
              </p>
            ) : null}
          </div>
        ) : null}
        {status.kind === 'note' ? (
          <p className="rounded-md border border-slate-400 bg-slate-50 p-4 text-slate-900">{status.message}</p>
        ) : null}
        {retryMessage ? (
          <div className="rounded-md border border-amber-700 bg-amber-50 p-4 text-amber-950" data-testid="send-retry">
            <p className="font-semibold">{retryMessage}</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <button type="button" onClick={() => void attempt()} className="btn-primary">
                {sendingText.sendNow}
              </button>
              <button
                type="button"
                onClick={cancel}
                className="rounded-md border border-slate-500 px-4 py-2 font-semibold text-brand-900 hover:bg-white"
              >
                {sendingText.cancel}
              </button>
            </div>
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
