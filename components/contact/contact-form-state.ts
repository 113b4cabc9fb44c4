// The contact form's state and what may happen to it, as one pure reducer (decision 0027). What is not
// drawn stays in the component: the press being sent, its abort controller and retry timer, the inputs.
import { ApiError } from '@/lib/api-error';
import type { ContactResponse } from '@/lib/contact-outcome';
import type { DraftFields } from '@/lib/contact-draft';
import {
  EMPTY_FIELDS,
  ENQUIRY_FIELDS,
  HONEYPOT_FIELD,
  PHOTO_FIELD,
  isClaimField,
  type EnquiryField,
  type EnquiryFields,
  type FormErrors,
  type FormField,
} from '@/lib/contact-fields';
import { CLAIM_TOGGLE_FIELD, CLAIM_TOGGLE_VALUE, type NativeFormState } from '@/lib/native-form-state';
import { ENQUIRY_KEY_FIELD } from '@/lib/enquiry-key';
import { responseReason } from '@/lib/contact-response.mjs';
import { PHOTO_MAX_COUNT } from '@/lib/enquiry-rules.mjs';
import { sendingText } from '@/content/contact';
import type { PickedPhoto } from '@/components/contact/photo-picker';
import type { UploadProgress } from '@/components/contact/send-progress';

type SuccessStatus = { kind: 'success'; message: string; reference?: string; photosNotKept?: boolean; urgent?: boolean };

type Status =
  | { kind: 'idle' }
  | SuccessStatus
  | { kind: 'error'; message: string }
  /** A plain note (restored, cleared, cancelled): announced politely, not as an error. */
  | { kind: 'note'; message: string }
  /** No signal: the service worker keeps the enquiry on the phone and sends it when it can (lib/offline/). */
  | { kind: 'kept' };

export type RetryReason = 'lost' | 'offline' | 'busy';

/** A send that failed for want of a connection or a free slot, and when it is tried again by itself. */
type Retry = { reason: RetryReason; at: number };

/** After a network failure the form keeps trying for this long, the delay doubling from the first. */
const RETRY_FOR_MS = 5 * 60_000;
const FIRST_RETRY_DELAY_MS = 2_000;
const LONGEST_RETRY_DELAY_MS = 60_000;
/** A busy server's Retry-After is honoured up to this. */
const LONGEST_BUSY_WAIT_S = 120;

/**
 * One press of Send: what was checked then, sent again exactly as it was on every retry, with the
 * enquiry's key, so the server answers a retry as the same enquiry.
 */
export type Submission = {
  fields: Record<string, string>;
  photos: readonly PickedPhoto[];
  firstFailureAt: number | null;
  nextDelayMs: number;
  /** The visitor's answers make it urgent: the success message offers the emergency line. */
  urgent: boolean;
};

export const newSubmission = (): Submission => ({
  fields: {},
  photos: [],
  firstFailureAt: null,
  nextDelayMs: FIRST_RETRY_DELAY_MS,
  urgent: false,
});

export type FormState = {
  /** What the visitor typed and answered, the claim's fields too (kept while its part is closed, but not sent). */
  fields: EnquiryFields;
  /** The enquiry's key (lib/enquiry-key.ts), sent with every try of it; '' until the form has made one. */
  enquiryKey: string;
  claimOpen: boolean;
  photos: PickedPhoto[];
  honeypot: string;
  errors: FormErrors;
  status: Status;
  /** A try is in flight. */
  submitting: boolean;
  progress: UploadProgress | null;
  retry: Retry | null;
  /** An edit stopped the send that waited to be tried again: the hook lets go of it. */
  sendStoppedByEdit: boolean;
  /** When the retry countdown was last drawn. */
  clock: number;
};

export type FormAction =
  | { type: 'field'; field: EnquiryField; value: string }
  | { type: 'honeypot'; value: string }
  | { type: 'claimOpen'; open: boolean }
  /** A link asked for the claim part open, with some of its answers given (lib/contact-prefill.ts). */
  | { type: 'prefill'; fields: Partial<EnquiryFields> }
  | { type: 'photos'; photos: PickedPhoto[] }
  | { type: 'photoProblem'; problem: string | undefined }
  /**
   * What the page's fields held when the form's script took over: a visitor on a slow phone types (and
   * ticks, and chooses) before the page has hydrated, and the state starts from that, not from empty.
   */
  | { type: 'takenOver'; entries: EnteredFields }
  | { type: 'draftRestored'; fields: DraftFields | null; photos: PickedPhoto[] }
  | { type: 'cleared'; nextKey: string }
  | { type: 'invalid'; errors: FormErrors }
  | { type: 'valid' }
  | { type: 'sendStarted' }
  | { type: 'progress'; progress: UploadProgress }
  | { type: 'sendEnded' }
  | { type: 'retryScheduled'; retry: Retry; now: number }
  | { type: 'tick'; now: number }
  /** Sent: the form empties, and the next enquiry gets `nextKey`. */
  | { type: 'sent'; status: SuccessStatus; nextKey: string }
  /** Not sent: the message shown, and the fields the server objected to (when it answered). */
  | { type: 'failed'; message: string; errors?: FormErrors }
  /** Handed to the service worker to send when the phone has a signal: the form keeps what was typed. */
  | { type: 'keptOnPhone' }
  | { type: 'cancelled' };

/** The form as the server rendered it: empty, or a native post that was refused, with its values and messages. */
export function initialFormState(native: NativeFormState): FormState {
  const refused = native.kind === 'refused' ? native : null;
  return {
    fields: refused ? fieldsFrom((field) => refused.values[field] ?? '') : EMPTY_FIELDS,
    claimOpen: refused?.claimOpen ?? false,
    enquiryKey: refused?.enquiryKey ?? '',
    photos: [],
    honeypot: '',
    errors: refused?.errors ?? {},
    status: refused ? { kind: 'error', message: refused.message } : { kind: 'idle' },
    submitting: false,
    progress: null,
    retry: null,
    sendStoppedByEdit: false,
    clock: 0,
  };
}

const fieldsFrom = (text: (field: EnquiryField) => string) =>
  Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, text(field)])) as EnquiryFields;

/** The form's text, answers, claim toggle and key as the page holds them (see enteredFields). */
export type EnteredFields = { fields: EnquiryFields; claimOpen: boolean; honeypot: string; enquiryKey: string };

/**
 * What the form's own fields hold, read through FormData as the browser would post them: the text as
 * typed, the ticked answer of each group ('' when none), whether the claim part is open.
 */
export function enteredFields(data: FormData): EnteredFields {
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return {
    fields: fieldsFrom(text),
    claimOpen: text(CLAIM_TOGGLE_FIELD) === CLAIM_TOGGLE_VALUE,
    honeypot: text(HONEYPOT_FIELD),
    enquiryKey: text(ENQUIRY_KEY_FIELD),
  };
}

/** Each field as the visitor has it, or the draft's where the visitor has left it empty. */
const filledFrom = (current: EnquiryFields, draft: EnquiryFields) => fieldsFrom((field) => current[field] || draft[field]);

function withoutError(errors: FormErrors, field: FormField): FormErrors {
  if (!errors[field]) return errors;
  const next = { ...errors };
  delete next[field];
  return next;
}

/** Everything the visitor entered, gone (success, or "Clear form"). */
const emptied = { fields: EMPTY_FIELDS, claimOpen: false, photos: [], honeypot: '', errors: {} } satisfies Partial<FormState>;

/**
 * An edit while a send waits to be tried again: that send's words are no longer the visitor's, and its
 * success would empty the form of the new ones. It stops (the hook lets go of it) and Send sends the
 * form as it now is, with the same key: a new enquiry tied to the first if that one arrived (decision 0035).
 */
const stopsWaitingSend = (before: FormState, after: FormState): FormState =>
  before.retry
    ? { ...after, retry: null, sendStoppedByEdit: true, status: { kind: 'note', message: sendingText.editedWhileWaiting } }
    : after;

export function formReducer(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case 'field':
      return stopsWaitingSend(state, {
        ...state,
        fields: { ...state.fields, [action.field]: action.value },
        errors: withoutError(state.errors, action.field),
      });
    case 'honeypot':
      return { ...state, honeypot: action.value };
    case 'claimOpen':
      // The claim details are kept while the part is closed but neither checked nor sent.
      return stopsWaitingSend(
        state,
        action.open
          ? { ...state, claimOpen: true }
          : {
              ...state,
              claimOpen: false,
              errors: Object.fromEntries(Object.entries(state.errors).filter(([field]) => !isClaimField(field))),
            },
      );
    case 'prefill':
      return { ...state, claimOpen: true, fields: { ...state.fields, ...action.fields } };
    case 'photos':
      return { ...state, photos: action.photos, errors: withoutError(state.errors, PHOTO_FIELD) };
    case 'photoProblem':
      return { ...state, errors: { ...state.errors, [PHOTO_FIELD]: action.problem } };
    case 'takenOver':
      return { ...state, ...action.entries };
    case 'draftRestored': {
      // The draft fills what is empty and never overwrites what the visitor has typed or chosen since.
      const draft = action.fields;
      const fields = draft
        ? {
            fields: filledFrom(state.fields, draft.fields),
            claimOpen: state.claimOpen || draft.claimOpen,
            // The draft's enquiry continues, with its key: a try sent before the reload may have arrived.
            ...(draft.enquiryKey ? { enquiryKey: draft.enquiryKey } : {}),
          }
        : {};
      const known = new Set(state.photos.map((photo) => photo.id));
      const restored = action.photos.filter((photo) => !known.has(photo.id));
      const photos = restored.length > 0 ? { photos: [...state.photos, ...restored].slice(0, PHOTO_MAX_COUNT) } : {};
      return { ...state, ...fields, ...photos, status: { kind: 'note', message: sendingText.restored } };
    }
    case 'cleared':
      return { ...state, ...emptied, enquiryKey: action.nextKey, retry: null, status: { kind: 'note', message: sendingText.cleared } };
    case 'invalid':
      return { ...state, status: { kind: 'idle' }, errors: action.errors };
    case 'valid':
      return { ...state, errors: {} };
    case 'sendStarted':
      return { ...state, submitting: true, retry: null, sendStoppedByEdit: false, status: { kind: 'idle' } };
    case 'progress':
      return { ...state, progress: action.progress };
    case 'sendEnded':
      return { ...state, submitting: false, progress: null };
    case 'retryScheduled':
      return { ...state, clock: action.now, retry: action.retry, status: { kind: 'idle' } };
    case 'tick':
      return { ...state, clock: action.now };
    case 'sent':
      return { ...state, ...emptied, enquiryKey: action.nextKey, status: action.status };
    case 'failed':
      return { ...state, retry: null, errors: action.errors ?? state.errors, status: { kind: 'error', message: action.message } };
    case 'keptOnPhone':
      return { ...state, retry: null, status: { kind: 'kept' } };
    case 'cancelled':
      return { ...state, retry: null, status: { kind: 'note', message: sendingText.cancelled } };
  }
}

/** What the waiting send says, with its countdown; null when none is waiting. */
export function retryMessage(retry: Retry | null, clock: number): string | null {
  if (!retry) return null;
  const waitSeconds = Math.max(0, Math.ceil((retry.at - Math.max(clock, 0)) / 1000));
  if (retry.reason === 'busy') return sendingText.busy(waitSeconds);
  return retry.reason === 'offline' ? sendingText.offline : sendingText.lost(waitSeconds);
}

/** When the same submission is tried again: after Retry-After when the server is busy, else after a doubling delay; null once it has kept failing for too long. */
export function planRetry(
  submission: Submission,
  reason: RetryReason,
  retryAfterSeconds: number | undefined,
  now: number,
): { submission: Submission; delay: number } | null {
  const firstFailureAt = submission.firstFailureAt ?? now;
  if (now - firstFailureAt > RETRY_FOR_MS) return null;
  if (reason === 'busy') {
    return { submission: { ...submission, firstFailureAt }, delay: Math.min(retryAfterSeconds ?? 30, LONGEST_BUSY_WAIT_S) * 1000 };
  }
  const nextDelayMs = Math.min(submission.nextDelayMs * 2, LONGEST_RETRY_DELAY_MS);
  return { submission: { ...submission, firstFailureAt, nextDelayMs }, delay: submission.nextDelayMs };
}

/** What a failed POST comes to: an answer to show, a retry later, or nothing (the visitor cancelled it). */
type FailedSend =
  { next: 'show'; response: ContactResponse } | { next: 'retry'; reason: RetryReason; retryAfterSeconds?: number } | { next: 'stop' };

export function afterFailedSend(error: unknown, offline: boolean): FailedSend {
  if (!(error instanceof ApiError)) return { next: 'show', response: { status: 'no-answer' } };
  if (error.status === undefined) return error.cancelled ? { next: 'stop' } : { next: 'retry', reason: offline ? 'offline' : 'lost' };
  // A 503 from something in front of the site (no reason) is busy too.
  const reason = responseReason(error.body);
  const busy = reason === 'busy' || reason === 'unavailable' || (reason === undefined && error.status === 503);
  if (busy && error.retryAfterSeconds !== undefined) return { next: 'retry', reason: 'busy', retryAfterSeconds: error.retryAfterSeconds };
  return { next: 'show', response: { status: error.status, body: error.body } };
}
