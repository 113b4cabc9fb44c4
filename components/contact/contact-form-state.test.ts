import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { EMPTY_FIELDS, type FormErrors } from '@/lib/contact-fields';
import { CONTACT_RESPONSES, sendingText } from '@/content/contact';
import type { PickedPhoto } from '@/components/contact/photo-picker';
import {
  afterFailedSend,
  enteredFields,
  formReducer,
  initialFormState,
  newSubmission,
  planRetry,
  retryMessage,
  type FormAction,
  type FormState,
} from './contact-form-state';

const idle = initialFormState({ kind: 'idle' });
const run = (state: FormState, ...actions: FormAction[]) => actions.reduce(formReducer, state);
const photo = (id: number) => ({ id, previewUrl: `blob:${id}` }) as unknown as PickedPhoto;
const typed = run(
  idle,
  { type: 'field', field: 'name', value: 'Jo' },
  { type: 'claimOpen', open: true },
  { type: 'field', field: 'postcode', value: 'G1 1AA' },
  { type: 'photos', photos: [photo(1)] },
  { type: 'honeypot', value: 'bot' },
);

describe('initialFormState', () => {
  it('starts empty and idle', () => {
    expect(idle).toEqual({
      fields: EMPTY_FIELDS,
      claimOpen: false,
      enquiryKey: '',
      photos: [],
      honeypot: '',
      errors: {},
      status: { kind: 'idle' },
      submitting: false,
      progress: null,
      retry: null,
      sendStoppedByEdit: false,
      clock: 0,
    });
  });

  it('brings back a refused native post: its values, the claim part, each message and the alert', () => {
    const state = initialFormState({
      kind: 'refused',
      message: 'Please correct the highlighted fields.',
      errors: { email: 'Enter a valid email' },
      values: { name: 'Jo', email: 'jo@', postcode: 'G1 1AA' },
      claimOpen: true,
      enquiryKey: 'KeyFromTheServer123456',
    });
    expect(state.enquiryKey).toBe('KeyFromTheServer123456');
    expect(state.fields).toEqual({ ...EMPTY_FIELDS, name: 'Jo', email: 'jo@', postcode: 'G1 1AA' });
    expect(state.claimOpen).toBe(true);
    expect(state.errors).toEqual({ email: 'Enter a valid email' });
    expect(state.status).toEqual({ kind: 'error', message: 'Please correct the highlighted fields.' });
  });
});

describe('formReducer: editing', () => {
  it('a change sets the value and clears that field’s message only', () => {
    const errors: FormErrors = { name: 'Enter your name', email: 'Enter your email' };
    const state = run({ ...idle, errors }, { type: 'field', field: 'name', value: 'Jo' });
    expect(state.fields.name).toBe('Jo');
    expect(state.errors).toEqual({ email: 'Enter your email' });
  });

  it('keeps the same errors object when the field had no message (nothing to redraw)', () => {
    const errors: FormErrors = { email: 'Enter your email' };
    expect(run({ ...idle, errors }, { type: 'field', field: 'name', value: 'Jo' }).errors).toBe(errors);
  });

  it('a claim’s field is a field like any other: set, its message cleared', () => {
    const state = run({ ...idle, errors: { postcode: 'Enter a UK postcode' } }, { type: 'field', field: 'postcode', value: 'G1' });
    expect(state.fields.postcode).toBe('G1');
    expect(state.errors).toEqual({});
  });

  it('closing the claim part keeps its values but drops its messages; opening keeps every message', () => {
    const errors: FormErrors = { name: 'Enter your name', postcode: 'Enter a UK postcode' };
    const open = run({ ...typed, errors }, { type: 'claimOpen', open: true });
    expect(open.errors).toBe(errors);
    const closed = run(open, { type: 'claimOpen', open: false });
    expect(closed.claimOpen).toBe(false);
    expect(closed.fields.postcode).toBe('G1 1AA');
    expect(closed.errors).toEqual({ name: 'Enter your name' });
  });

  it('a prefill opens the claim part and sets what the link gave, keeping the rest', () => {
    const state = run(typed, { type: 'prefill', fields: { damageType: 'storm' } });
    expect(state.claimOpen).toBe(true);
    expect(state.fields).toMatchObject({ damageType: 'storm', postcode: 'G1 1AA', name: 'Jo' });
  });

  it('photos: a new set clears the photo message; a problem sets it', () => {
    const problem = run(typed, { type: 'photoProblem', problem: 'Too large' });
    expect(problem.errors.photos).toBe('Too large');
    const next = run(problem, { type: 'photos', photos: [photo(1), photo(2)] });
    expect(next.photos.map((each) => each.id)).toEqual([1, 2]);
    expect(next.errors).toEqual({});
  });
});

describe('the fields as the page held them when the script took over', () => {
  function posted(entries: [string, string][]): FormData {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    data.append('photos', new File([], ''));
    return data;
  }

  it('reads text, the ticked answers, the claim toggle and the hidden field, as the browser would post them', () => {
    const entries = enteredFields(
      posted([
        ['name', 'Morag Before'],
        ['message', 'Typed before the script ran'],
        ['claim', 'open'],
        ['worsening', 'yes'],
        ['postcode', 'G67 1AA'],
        ['website', ''],
        ['enquiryKey', 'KeyRenderedWithThePage'],
      ]),
    );
    expect(entries).toEqual({
      fields: { ...EMPTY_FIELDS, name: 'Morag Before', message: 'Typed before the script ran', worsening: 'yes', postcode: 'G67 1AA' },
      claimOpen: true,
      honeypot: '',
      enquiryKey: 'KeyRenderedWithThePage',
    });
    expect(enteredFields(posted([])).claimOpen).toBe(false);
  });

  it('the state starts from them, keeping its photos and messages', () => {
    const entries = enteredFields(posted([['name', 'Morag Before']]));
    const state = run({ ...typed, errors: { email: 'x' } }, { type: 'takenOver', entries });
    expect(state.fields.name).toBe('Morag Before');
    expect(state.claimOpen).toBe(false);
    expect(state.photos).toBe(typed.photos);
    expect(state.errors).toEqual({ email: 'x' });
  });
});

describe('formReducer: draft and clearing', () => {
  it('a restored draft brings back the fields and photos it has, with a note', () => {
    const fields = { savedAt: 1, fields: { ...EMPTY_FIELDS, name: 'Jo', postcode: 'G1' }, claimOpen: true };
    const state = run(idle, { type: 'draftRestored', fields, photos: [photo(3)] });
    expect(state).toMatchObject({ fields: fields.fields, claimOpen: true });
    expect(state.photos.map((each) => each.id)).toEqual([3]);
    expect(state.status).toEqual({ kind: 'note', message: sendingText.restored });
  });

  it('a draft of photos only leaves the fields as they are and adds its photos to those chosen since', () => {
    const state = run(typed, { type: 'draftRestored', fields: null, photos: [photo(4)] });
    expect(state.fields).toBe(typed.fields);
    expect(state.photos.map((each) => each.id)).toEqual([1, 4]);
  });

  it('a draft fills only what the visitor has left empty, and never beyond six photos', () => {
    const fields = {
      savedAt: 1,
      fields: { ...EMPTY_FIELDS, name: 'Old name', email: 'old@example.com', postcode: 'G2 2BB', insurer: 'Old Insurer' },
      claimOpen: false,
    };
    const six = [2, 3, 4, 5, 6, 7].map(photo);
    const state = run(typed, { type: 'draftRestored', fields, photos: [photo(1), ...six] });
    expect(state.fields).toEqual({ ...EMPTY_FIELDS, name: 'Jo', email: 'old@example.com', postcode: 'G1 1AA', insurer: 'Old Insurer' });
    expect(state.claimOpen).toBe(true);
    expect(state.photos.map((each) => each.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a draft's enquiry goes on with the draft's key; a draft without one keeps the form's", () => {
    const withKey = { savedAt: 1, fields: EMPTY_FIELDS, claimOpen: false, enquiryKey: 'DraftKey' };
    const made = { ...typed, enquiryKey: 'MadeOnLoad' };
    expect(run(made, { type: 'draftRestored', fields: withKey, photos: [] }).enquiryKey).toBe('DraftKey');
    const { enquiryKey: _dropped, ...withoutKey } = withKey;
    expect(run(made, { type: 'draftRestored', fields: withoutKey, photos: [] }).enquiryKey).toBe('MadeOnLoad');
  });

  it('a draft of fields only keeps the photos', () => {
    const fields = { savedAt: 1, fields: { ...EMPTY_FIELDS, name: 'Ann' }, claimOpen: false };
    expect(run(typed, { type: 'draftRestored', fields, photos: [] }).photos).toBe(typed.photos);
  });

  it('Clear form empties everything, stops a waiting retry and says so', () => {
    const waiting = run(typed, { type: 'retryScheduled', retry: { reason: 'lost', at: 5_000 }, now: 1_000 });
    const state = run({ ...waiting, errors: { name: 'x' } }, { type: 'cleared', nextKey: 'NextKey' });
    expect(state).toMatchObject({ fields: EMPTY_FIELDS, claimOpen: false, photos: [], honeypot: '', errors: {}, retry: null });
    expect(state.enquiryKey).toBe('NextKey');
    expect(state.status).toEqual({ kind: 'note', message: sendingText.cleared });
  });
});

describe('formReducer: an edit while a send waits to be tried again', () => {
  it('stops that send and says Send sends the form as it now is; an edit with nothing waiting says nothing', () => {
    const waiting = run(typed, { type: 'retryScheduled', retry: { reason: 'lost', at: 5_000 }, now: 1_000 });
    const edited = run(waiting, { type: 'field', field: 'message', value: 'The kitchen too.' });
    expect(edited).toMatchObject({
      retry: null,
      sendStoppedByEdit: true,
      status: { kind: 'note', message: sendingText.editedWhileWaiting },
    });
    expect(edited.fields.message).toBe('The kitchen too.');
    expect(run(waiting, { type: 'claimOpen', open: false })).toMatchObject({ retry: null, claimOpen: false });
    expect(run(typed, { type: 'field', field: 'message', value: 'x' }).status).toEqual(typed.status);
  });
});

describe('formReducer: sending', () => {
  it('a press with messages shows them and no status; a valid one clears them', () => {
    const invalid = run(
      { ...typed, status: { kind: 'note', message: 'restored' } },
      { type: 'invalid', errors: { email: 'Enter your email' } },
    );
    expect(invalid.status).toEqual({ kind: 'idle' });
    expect(invalid.errors).toEqual({ email: 'Enter your email' });
    expect(run(invalid, { type: 'valid' }).errors).toEqual({});
  });

  it('a try is submitting from start to end, with its progress, and clears a waiting retry and the status', () => {
    const waiting = run(typed, { type: 'retryScheduled', retry: { reason: 'offline', at: 9_000 }, now: 1_000 });
    const started = run(waiting, { type: 'sendStarted' });
    expect(started).toMatchObject({ submitting: true, retry: null, sendStoppedByEdit: false, status: { kind: 'idle' } });
    const moving = run(started, { type: 'progress', progress: { sent: 10, total: 100, startedAt: 1, at: 2 } });
    expect(moving.progress).toEqual({ sent: 10, total: 100, startedAt: 1, at: 2 });
    expect(run(moving, { type: 'sendEnded' })).toMatchObject({ submitting: false, progress: null });
  });

  it('a scheduled retry sets the countdown’s clock and clears the status; a tick moves the clock', () => {
    const state = run(
      { ...typed, status: { kind: 'error', message: 'x' } },
      { type: 'retryScheduled', retry: { reason: 'busy', at: 31_000 }, now: 1_000 },
    );
    expect(state).toMatchObject({ retry: { reason: 'busy', at: 31_000 }, clock: 1_000, status: { kind: 'idle' } });
    expect(run(state, { type: 'tick', now: 2_000 }).clock).toBe(2_000);
  });

  it('success empties the form and shows the success status', () => {
    const status = { kind: 'success', message: 'Stored.', reference: 'HC-ABC-DEF', photosNotKept: undefined, urgent: true } as const;
    const state = run({ ...typed, submitting: true, enquiryKey: 'SentKey' }, { type: 'sent', status, nextKey: 'NextKey' });
    expect(state).toMatchObject({ fields: EMPTY_FIELDS, claimOpen: false, photos: [], honeypot: '', errors: {} });
    expect(state.enquiryKey).toBe('NextKey');
    expect(state.status).toBe(status);
  });

  it('a failure keeps everything typed; with the server’s field messages when it gave them', () => {
    const withFields = run(typed, { type: 'failed', message: 'Please correct', errors: { email: 'No such address' } });
    expect(withFields.fields).toBe(typed.fields);
    expect(withFields.photos).toBe(typed.photos);
    expect(withFields.errors).toEqual({ email: 'No such address' });
    expect(withFields.status).toEqual({ kind: 'error', message: 'Please correct' });
    const errors: FormErrors = { name: 'kept' };
    expect(run({ ...typed, errors }, { type: 'failed', message: 'Failed' }).errors).toBe(errors);
  });

  it('Cancel stops the retry, keeps every field and photo, and says so', () => {
    const waiting = run(typed, { type: 'retryScheduled', retry: { reason: 'lost', at: 5_000 }, now: 1_000 });
    const state = run(waiting, { type: 'cancelled' });
    expect(state.retry).toBeNull();
    expect(state.fields).toBe(typed.fields);
    expect(state.photos).toBe(typed.photos);
    expect(state.status).toEqual({ kind: 'note', message: sendingText.cancelled });
  });

  it('kept on the phone by the service worker: no retry from the page, every field, photo and the key kept', () => {
    const waiting = run(typed, { type: 'retryScheduled', retry: { reason: 'offline', at: 5_000 }, now: 1_000 });
    const state = run(waiting, { type: 'keptOnPhone' });
    expect(state.retry).toBeNull();
    expect(state.fields).toBe(typed.fields);
    expect(state.photos).toBe(typed.photos);
    expect(state.enquiryKey).toBe(typed.enquiryKey);
    expect(state.status).toEqual({ kind: 'kept' });
  });
});

describe('retryMessage', () => {
  it('says nothing without a waiting send', () => {
    expect(retryMessage(null, 0)).toBeNull();
  });
  it('counts down to the next try in whole seconds, never below zero', () => {
    expect(retryMessage({ reason: 'lost', at: 10_000 }, 1_500)).toBe(sendingText.lost(9));
    expect(retryMessage({ reason: 'lost', at: 10_000 }, 12_000)).toBe(sendingText.lost(0));
    expect(retryMessage({ reason: 'busy', at: 31_000 }, 1_000)).toBe(sendingText.busy(30));
    expect(retryMessage({ reason: 'offline', at: 31_000 }, 1_000)).toBe(sendingText.offline);
  });
});

describe('planRetry', () => {
  it('doubles the delay from 2 s up to 60 s after a lost connection, from the first failure on', () => {
    let submission = newSubmission();
    const delays: number[] = [];
    for (let tries = 0; tries < 8; tries += 1) {
      const plan = planRetry(submission, 'lost', undefined, 1_000 + tries);
      delays.push(plan!.delay);
      submission = plan!.submission;
    }
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(submission.firstFailureAt).toBe(1_000);
  });

  it("honours a busy server's Retry-After up to two minutes (30 s without one), without touching the backoff", () => {
    const submission = newSubmission();
    expect(planRetry(submission, 'busy', 45, 0)).toEqual({ submission: { ...submission, firstFailureAt: 0 }, delay: 45_000 });
    expect(planRetry(submission, 'busy', 600, 0)!.delay).toBe(120_000);
    expect(planRetry(submission, 'busy', undefined, 0)!.delay).toBe(30_000);
  });

  it('gives up five minutes after the first failure', () => {
    const failing = { ...newSubmission(), firstFailureAt: 1_000 };
    expect(planRetry(failing, 'lost', undefined, 1_000 + 5 * 60_000)).not.toBeNull();
    expect(planRetry(failing, 'offline', undefined, 1_001 + 5 * 60_000)).toBeNull();
    expect(planRetry(failing, 'busy', 30, 1_001 + 5 * 60_000)).toBeNull();
  });

  it('leaves the submission it was given as it was', () => {
    const submission = newSubmission();
    planRetry(submission, 'lost', undefined, 5);
    expect(submission).toEqual(newSubmission());
  });
});

describe('afterFailedSend', () => {
  const network = (cancelled = false) => new ApiError('Network Error', { kind: 'network', cancelled });
  const answered = (status: number, body?: unknown, retryAfterSeconds?: number) =>
    new ApiError(`HTTP ${status}`, { kind: status >= 500 ? 'server' : 'client', status, body, retryAfterSeconds });

  it('no answer: tried again, as offline when the browser says so', () => {
    expect(afterFailedSend(network(), false)).toEqual({ next: 'retry', reason: 'lost' });
    expect(afterFailedSend(network(), true)).toEqual({ next: 'retry', reason: 'offline' });
  });

  it('cancelled by the visitor: nothing more', () => {
    expect(afterFailedSend(network(true), false)).toEqual({ next: 'stop' });
  });

  it('busy with a Retry-After (503, or 429 for an upload in progress): tried again after it', () => {
    expect(afterFailedSend(answered(503, {}, 30), false)).toEqual({ next: 'retry', reason: 'busy', retryAfterSeconds: 30 });
    expect(afterFailedSend(answered(429, { message: CONTACT_RESPONSES.uploadInProgress, reason: 'busy' }, 5), false)).toEqual({
      next: 'retry',
      reason: 'busy',
      retryAfterSeconds: 5,
    });
    // Decided by the reason, not the wording: the same answer in other words is still busy, and the
    // store being unavailable is tried again the same way.
    expect(afterFailedSend(answered(429, { message: 'Other words', reason: 'busy' }, 5), false)).toMatchObject({ next: 'retry' });
    expect(afterFailedSend(answered(503, { message: 'x', reason: 'unavailable' }, 60), false)).toMatchObject({
      next: 'retry',
      retryAfterSeconds: 60,
    });
    expect(afterFailedSend(answered(429, { message: CONTACT_RESPONSES.uploadInProgress, reason: 'rate-limited' }, 5), false)).toMatchObject(
      {
        next: 'show',
      },
    );
  });

  it('any other answer is shown, a 503 without Retry-After and a plain 429 included', () => {
    expect(afterFailedSend(answered(503, { message: 'down' }), false)).toEqual({
      next: 'show',
      response: { status: 503, body: { message: 'down' } },
    });
    expect(afterFailedSend(answered(429, { message: 'Slow down' }, 600), false)).toEqual({
      next: 'show',
      response: { status: 429, body: { message: 'Slow down' } },
    });
    expect(afterFailedSend(answered(422, { errors: [] }), false)).toEqual({
      next: 'show',
      response: { status: 422, body: { errors: [] } },
    });
  });

  it('anything else thrown (a photo that could not be prepared) is the failure for no answer', () => {
    expect(afterFailedSend(new Error('decode failed'), false)).toEqual({ next: 'show', response: { status: 'no-answer' } });
  });
});
