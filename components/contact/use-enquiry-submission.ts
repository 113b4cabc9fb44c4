'use client';

// Everything between the press of Send and what the visitor is told, apart from the fields: the draft
// kept on the device, the tries (a fresh reCAPTCHA token each, JSON or multipart with progress), the
// automatic retries after a lost answer or a busy server, Cancel, and the outcome shown and logged. The
// form renders fields and states; this hook sends.
import { useEffect, useRef, type Dispatch } from 'react';
import { apiRequest as defaultApiRequest, type ApiResponse } from '@/lib/api-client';
import { contactOutcome, type ContactOutcome, type ContactResponse } from '@/lib/contact-outcome';
import { photoFromDraft, type PickedPhoto } from '@/components/contact/photo-picker';
import {
  afterFailedSend,
  newSubmission,
  planRetry,
  type FormAction,
  type FormState,
  type RetryReason,
  type Submission,
} from '@/components/contact/contact-form-state';
import {
  CONTACT_FIELDS,
  ENQUIRY_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  isUrgent,
  type EnquiryFields,
  type FormErrors,
} from '@/lib/contact-fields';
import { clearDraft, loadDraftFields, loadDraftPhotos, removeDraftPhoto, saveDraftFields, saveDraftPhoto } from '@/lib/contact-draft';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import { loadRecaptcha, recaptchaToken } from '@/lib/recaptcha-client';
import { attributionFor } from '@/lib/visit-attribution';
import { ENQUIRY_KEY_FIELD, newEnquiryKey } from '@/lib/enquiry-key';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';

const LOG_SOURCE = 'contact-form';

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
const given = <T extends Record<string, string>>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as Partial<T>;

/** The fields sent: the spec's five message fields always, the claim's only those answered, and only while its part is open. */
function sentFields(fields: EnquiryFields, claimOpen: boolean): Partial<EnquiryFields> {
  const sent: Partial<EnquiryFields> = {};
  for (const field of ENQUIRY_FIELDS)
    if ((CONTACT_FIELDS as readonly string[]).includes(field) || (claimOpen && fields[field] !== '')) sent[field] = fields[field];
  return sent;
}

export type EnquirySubmissionOptions = {
  state: FormState;
  dispatch: Dispatch<FormAction>;
  /** Whether a draft kept on the device may come back (not over a refused native post's values). */
  restoreDraft: boolean;
  /** The reCAPTCHA site key ('' without bot protection). */
  siteKey: string;
  endpoint: string;
  /** Whether photos are sent (not to an API on another host, which may not accept files). */
  acceptsPhotos: boolean;
  apiRequest?: typeof defaultApiRequest;
  logger?: Logger;
  /** The server refused it: the fields it objected to (the form focuses the first). */
  onRefused: (errors: FormErrors) => void;
};

export function useEnquirySubmission({
  state,
  dispatch,
  restoreDraft,
  siteKey,
  endpoint,
  acceptsPhotos,
  apiRequest = defaultApiRequest,
  logger = defaultLogger,
  onRefused,
}: EnquirySubmissionOptions) {
  const { fields, claimOpen, enquiryKey, photos, honeypot, retry, sendStoppedByEdit } = state;
  /** The press of Send being sent or waiting to be retried; read by the tries, which outlive renders. */
  const submission = useRef<Submission | null>(null);
  /** The try in flight: what Cancel aborts, and what keeps a second try from starting meanwhile. */
  const inFlight = useRef<AbortController | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** False until the draft kept on this device (if any) is back in the form: nothing is saved over it before. */
  const draftLoaded = useRef(false);

  // The draft kept on this device comes back after a reload, a closed tab or a crash (lib/contact-draft.ts).
  useEffect(() => {
    if (!restoreDraft) {
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
  }, [restoreDraft, dispatch]);

  useEffect(() => {
    if (!draftLoaded.current) return;
    const timer = setTimeout(() => saveDraftFields({ savedAt: Date.now(), fields, claimOpen, enquiryKey }), 300);
    return () => clearTimeout(timer);
  }, [fields, claimOpen, enquiryKey]);

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

  function photosChanged(next: PickedPhoto[]) {
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

  // A waiting send an edit stopped (formReducer): let go of it. Told by the state, not inferred from
  // `retry` being empty: a retry's own try empties it too, and its effect may run after the try failed.
  useEffect(() => {
    if (!sendStoppedByEdit) return;
    clearTimeout(retryTimer.current);
    submission.current = null;
  }, [sendStoppedByEdit]);

  /** What goes with emptying the form: the photos' previews let go, and the draft on the device removed. */
  function discardEntries() {
    photos.forEach((photo) => URL.revokeObjectURL(photo.previewUrl));
    void clearDraft();
  }

  /** Clear form: nothing waits to be sent, the previews and the draft go, the form empties. */
  function clear() {
    clearTimeout(retryTimer.current);
    discardEntries();
    dispatch({ type: 'cleared', nextKey: newEnquiryKey() });
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
      onRefused(outcome.fieldErrors);
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

  /** Google's script and the form's checks, fetched when the visitor first engages the form, never on page load. */
  function engage() {
    loadContactSchema().catch(() => undefined);
    if (siteKey) loadRecaptcha(siteKey).catch(() => undefined);
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
    const checked = validateContact(sentFields(fields, claimOpen));
    if (!checked.fields) {
      dispatch({ type: 'invalid', errors: checked.errors });
      onRefused(checked.errors);
      return null;
    }
    dispatch({ type: 'valid' });
    return {
      ...newSubmission(),
      // The JSON body, with the fields as the schema normalised them.
      fields: {
        ...sentFields(checked.fields, claimOpen),
        ...given(attributionFor(window.location.pathname)),
        [HONEYPOT_FIELD]: honeypot,
        [ENQUIRY_KEY_FIELD]: enquiryKey,
      },
      photos: acceptsPhotos ? photos : [],
      urgent: isUrgent(checked.fields),
    };
  }

  /** A press of Send: one submission at a time from the first click on, while the checks (maybe still loading) run. */
  async function submit() {
    if (submission.current) return;
    submission.current = newSubmission();
    const ready = await checkedSubmission();
    submission.current = ready;
    if (ready) await attempt();
  }

  return { engage, submit, sendNow: () => void attempt(), cancel, clear, photosChanged };
}
