'use client';

import {
  Suspense,
  useActionState,
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  type ChangeEvent,
  type FormEvent,
} from 'react';
import { CallButton } from '@/components/ui/call-button';
import { ExternalLink } from '@/components/ui/external-link';
import { apiRequest as defaultApiRequest, type ApiResponse } from '@/lib/api-client';
import { contactOutcome, type ContactOutcome, type ContactResponse } from '@/lib/contact-outcome';
import { ClaimDetails } from '@/components/contact/claim-details';
import { QueryPrefill } from '@/components/contact/query-prefill';
import { SendProgress } from '@/components/contact/send-progress';
import type { ContactPrefill } from '@/lib/contact-prefill';
import { attributionFor } from '@/lib/visit-attribution';
import { Field } from '@/components/contact/field';
import { PhotoPicker, photoFromDraft, type PickedPhoto } from '@/components/contact/photo-picker';
import {
  afterFailedSend,
  enteredFields,
  formReducer,
  initialFormState,
  newSubmission,
  planRetry,
  retryMessage,
  type RetryReason,
  type Submission,
} from '@/components/contact/contact-form-state';
import {
  CONTACT_FIELDS,
  FORM_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  isUrgent,
  type ClaimField,
  type ContactField,
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
import { ENQUIRY_KEY_FIELD, newEnquiryKey } from '@/lib/enquiry-key';
import { apiBaseUrl, recaptchaSiteKey } from '@/lib/public-env';
import { loadRecaptcha, recaptchaToken } from '@/lib/recaptcha-client';
import { CONTACT_MAX } from '@/lib/enquiry-rules.mjs';
import { CONTACT_OUTCOME_MESSAGES, contactFormText, photoText, referenceText, sendingText, urgentCallText } from '@/content/contact';

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

/** The values that were given: the JSON body carries the optional fields only when they are set. */
const given = <T extends Record<string, string>>(values: T | null): Partial<T> =>
  values ? (Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as Partial<T>) : {};

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
  const { values, claim, claimOpen, enquiryKey, photos, honeypot, errors, status, submitting, progress, retry, clock } = state;
  const inputs = useRef<Partial<Record<FormField, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null>>>({});
  /** The press of Send being sent or waiting to be retried; read by the tries, which outlive renders. */
  const submission = useRef<Submission | null>(null);
  /** The try in flight: what Cancel aborts, and what keeps a second try from starting meanwhile. */
  const inFlight = useRef<AbortController | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const form = useRef<HTMLFormElement | null>(null);
  /** False until the draft kept on this device (if any) is back in the form: nothing is saved over it before. */
  const draftLoaded = useRef(false);

  function engage() {
    // Google's script and the form's checks are fetched when the visitor first engages the form, never on page load.
    loadContactSchema().catch(() => undefined);
    if (siteKey) loadRecaptcha(siteKey).catch(() => undefined);
  }

  // What the visitor typed, ticked or chose while the page was still plain HTML stays: the state starts
  // from the fields as they are, before anything renders them again (photos: PhotoPicker).
  useLayoutEffect(() => {
    if (!form.current) return;
    const entries = enteredFields(new FormData(form.current));
    dispatch({ type: 'takenOver', entries: { ...entries, enquiryKey: entries.enquiryKey || newEnquiryKey() } });
  }, []);

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
      dispatch({ type: 'draftRestored', fields, photos: kept.map(photoFromDraft) });
    })();
    return () => {
      cancelled = true;
    };
  }, [nativeState.kind]);

  useEffect(() => {
    if (!draftLoaded.current) return;
    const timer = setTimeout(() => saveDraftFields({ savedAt: Date.now(), values, claim, claimOpen, enquiryKey }), 300);
    return () => clearTimeout(timer);
  }, [values, claim, claimOpen, enquiryKey]);

  // A send waiting to be tried again: at once when the browser is back online; a countdown meanwhile.
  useEffect(() => {
    if (!retry) return;
    const tick = setInterval(() => dispatch({ type: 'tick', now: Date.now() }), 1000);
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

  const onChange = (field: ContactField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    dispatch({ type: 'field', field, value: event.target.value });

  const onClaimChange = (field: ClaimField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    dispatch({ type: 'claimField', field, value: event.target.value });

  const register = (field: FormField) => (element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null) => {
    inputs.current[field] = element;
  };

  const applyPrefill = useCallback((prefill: ContactPrefill) => dispatch({ type: 'prefill', claim: prefill.claim }), []);

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
    dispatch({ type: 'photos', photos: next });
  }

  /** What goes with emptying the form: the photos' previews let go, and the draft on the device removed. */
  function discardEntries() {
    photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
    void clearDraft();
  }

  function clearForm() {
    clearTimeout(retryTimer.current);
    discardEntries();
    dispatch({ type: 'cleared', nextKey: newEnquiryKey() });
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

  /** Tries the same submission again later, or gives up with the failure message (everything typed stays). */
  function scheduleRetry(reason: RetryReason, retryAfterSeconds?: number) {
    const current = submission.current;
    if (!current) return;
    const now = Date.now();
    const plan = planRetry(current, reason, retryAfterSeconds, now);
    if (!plan) {
      submission.current = null;
      dispatch({ type: 'failed', message: CONTACT_OUTCOME_MESSAGES.failed });
      return;
    }
    submission.current = plan.submission;
    clearTimeout(retryTimer.current);
    retryTimer.current = setTimeout(() => void attempt(), plan.delay);
    dispatch({ type: 'retryScheduled', retry: { reason, at: now + plan.delay }, now });
  }

  const connectionReason = (): RetryReason => (navigator.onLine === false ? 'offline' : 'lost');

  /** A fresh reCAPTCHA token ('' without a site key), or null when there is none (the failure already dealt with). */
  async function freshToken(current: Submission): Promise<string | null> {
    if (!siteKey) return '';
    try {
      return await recaptchaToken(siteKey);
    } catch (error) {
      if (current.firstFailureAt !== null || navigator.onLine === false) {
        // Google's script cannot load while the connection is down: the same failure as the send's.
        scheduleRetry(connectionReason());
        return null;
      }
      logger.error(CONTACT_OUTCOME_MESSAGES.recaptchaLoad, { source: LOG_SOURCE, category: 'network', error });
      // Over: the next Send starts a new submission.
      submission.current = null;
      dispatch({ type: 'failed', message: CONTACT_OUTCOME_MESSAGES.failed });
      return null;
    }
  }

  /** The POST itself: JSON, or multipart with the photos and a progress bar. */
  async function post(current: Submission, token: string, signal: AbortSignal): Promise<ApiResponse<unknown>> {
    const fields = { ...current.fields, recaptchaToken: token };
    if (current.photos.length === 0) {
      return apiRequest(endpoint, { method: 'POST', json: fields, skipErrorLogging: true, signal });
    }
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    for (const photo of current.photos) body.append(PHOTO_FIELD, await photo.prepared, photo.file.name);
    const startedAt = Date.now();
    return apiRequest(endpoint, {
      method: 'POST',
      formData: body,
      skipErrorLogging: true,
      signal,
      onUploadProgress: (sent, total) => dispatch({ type: 'progress', progress: { sent, total, startedAt, at: Date.now() } }),
    });
  }

  /** What the visitor sees once the server answered (or plainly could not be reached): the submission is over. */
  function show(current: Submission, response: ContactResponse) {
    const outcome = contactOutcome(response, { sentPhotos: current.photos.length > 0 });
    report(outcome, response.status === 'no-answer' ? null : response.status);
    submission.current = null;
    if (outcome.kind === 'error') {
      dispatch({ type: 'failed', message: outcome.message, errors: outcome.fieldErrors });
      focusFirst(outcome.fieldErrors);
      return;
    }
    discardEntries();
    const { message, reference, photosNotKept } = outcome;
    dispatch({
      type: 'sent',
      status: { kind: 'success', message, reference, photosNotKept, urgent: current.urgent },
      nextKey: newEnquiryKey(),
    });
  }

  /** One try: a token, the POST, then what its answer or failure calls for. */
  async function sendOnce(current: Submission, signal: AbortSignal) {
    const token = await freshToken(current);
    if (token === null || signal.aborted) return;
    let response: ContactResponse;
    try {
      const answer = await post(current, token, signal);
      response = { status: answer.status, body: answer.data };
    } catch (error) {
      const failed = afterFailedSend(error, navigator.onLine === false);
      if (failed.next === 'stop') return;
      if (failed.next === 'retry') return scheduleRetry(failed.reason, failed.retryAfterSeconds);
      response = failed.response;
    }
    show(current, response);
  }

  /** One try at sending the current submission: a fresh reCAPTCHA token each time (they are single-use). */
  async function attempt() {
    const current = submission.current;
    if (!current || inFlight.current) return;
    clearTimeout(retryTimer.current);
    const controller = new AbortController();
    inFlight.current = controller;
    dispatch({ type: 'sendStarted' });
    try {
      await sendOnce(current, controller.signal);
    } finally {
      if (inFlight.current === controller) inFlight.current = null;
      dispatch({ type: 'sendEnded' });
    }
  }

  function cancel() {
    submission.current = null;
    clearTimeout(retryTimer.current);
    inFlight.current?.abort();
    dispatch({ type: 'cancelled' });
  }

  /** The submission the form's values make, or null when the checks failed (shown) or could not be loaded (reported). */
  async function checkedSubmission(): Promise<Submission | null> {
    let validateContact: ContactSchemaModule['validateContact'];
    try {
      ({ validateContact } = await loadContactSchema());
    } catch (error) {
      logger.error('Contact form checks could not be loaded', { source: LOG_SOURCE, category: 'network', error });
      dispatch({ type: 'failed', message: CONTACT_OUTCOME_MESSAGES.failed });
      return null;
    }
    const checked = validateContact(claimOpen ? { ...values, ...claim } : values);
    if (!checked.values) {
      dispatch({ type: 'invalid', errors: checked.errors });
      focusFirst(checked.errors);
      return null;
    }
    dispatch({ type: 'valid' });
    return {
      ...newSubmission(),
      // The JSON body; the claim details only those given, and only when any was.
      fields: {
        ...checked.values,
        ...given(checked.claim),
        ...given(attributionFor(window.location.pathname)),
        [HONEYPOT_FIELD]: honeypot,
        [ENQUIRY_KEY_FIELD]: enquiryKey,
      },
      photos: acceptsPhotos ? photos : [],
      urgent: isUrgent(checked.claim),
    };
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The scripted send; the form's action (the native post) is only for a browser without it.
    event.preventDefault();
    if (submission.current) return;
    // One submission at a time, from the first click on: the checks may still be loading.
    submission.current = newSubmission();
    const ready = await checkedSubmission();
    submission.current = ready;
    if (ready) await attempt();
  }

  const retryText = retryMessage(retry, clock);
  const anything = hasContent(values, claim) || photos.length > 0;

  return (
    <form
      ref={form}
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
        onOpenChange={(open) => dispatch({ type: 'claimOpen', open })}
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
                  <CallButton phone={emergencyPhone} variant="primary" label={urgentCallText.link} />
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
        {retryText ? (
          <div className="rounded-md border border-amber-700 bg-amber-50 p-4 text-amber-950" data-testid="send-retry">
            <p className="font-semibold">{retryText}</p>
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
