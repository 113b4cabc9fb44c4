// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { useReducer } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formReducer, initialFormState } from '@/components/contact/contact-form-state';
import { useEnquirySubmission } from '@/components/contact/use-enquiry-submission';
import { ApiError } from '@/lib/api-error';
import { createLogger } from '@/lib/logger';
import { NATIVE_FORM_IDLE } from '@/lib/native-form-state';
import { EMPTY_FIELDS } from '@/lib/contact-fields';
import { sendingText } from '@/content/contact';

// The sending hook on its own, without a page: a reducer for its state, a fake for the request.

afterEach(() => localStorage.clear());

const quiet = createLogger({
  endpoint: '/api/error-logs',
  send: async () => undefined,
  console: { info: () => undefined, warn: () => undefined, error: () => undefined },
});
const fields = {
  ...EMPTY_FIELDS,
  name: 'Jo Bloggs',
  email: 'jo@example.com',
  subject: 'Leaking roof',
  message: 'Water is coming through.',
};
const stored = { status: 201, data: { success: true, message: 'Stored.', reference: 'HC-ABC-DEF' } };
const lost = () => new ApiError('Network Error', { kind: 'network' });
const busy = (reason: string) =>
  new ApiError('HTTP 503', { kind: 'server', status: 503, body: { success: false, message: 'Any words', reason }, retryAfterSeconds: 1 });

function sendingWith(apiRequest: (...args: unknown[]) => Promise<unknown>) {
  const onRefused = vi.fn();
  const hook = renderHook(() => {
    const [state, dispatch] = useReducer(formReducer, NATIVE_FORM_IDLE, initialFormState);
    const sending = useEnquirySubmission({
      state,
      dispatch,
      restoreDraft: false,
      siteKey: '',
      endpoint: '/api/contact',
      acceptsPhotos: true,
      apiRequest: apiRequest as never,
      logger: quiet,
      onRefused,
    });
    return { state, dispatch, sending };
  });
  act(() =>
    hook.result.current.dispatch({
      type: 'takenOver',
      entries: { fields, claimOpen: false, honeypot: '', enquiryKey: 'KeyOfThisEnquiry123456' },
    }),
  );
  return { ...hook, onRefused };
}

const keysSent = (apiRequest: ReturnType<typeof vi.fn>) =>
  apiRequest.mock.calls.map(([, options]) => (options as { json: Record<string, string> }).json.enquiryKey);

describe('useEnquirySubmission', () => {
  it('a lost answer: waits, says so, and the retry carries the same key; the answer then empties the form for a new key', async () => {
    const apiRequest = vi.fn().mockRejectedValueOnce(lost()).mockResolvedValueOnce(stored);
    const { result } = sendingWith(apiRequest);
    await act(() => result.current.sending.submit());
    expect(result.current.state.retry).toMatchObject({ reason: 'lost' });
    await act(async () => result.current.sending.sendNow());
    await waitFor(() => expect(result.current.state.status).toMatchObject({ kind: 'success', reference: 'HC-ABC-DEF' }));
    expect(keysSent(apiRequest)).toEqual(['KeyOfThisEnquiry123456', 'KeyOfThisEnquiry123456']);
    expect(result.current.state.fields.name).toBe('');
    expect(result.current.state.enquiryKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(result.current.state.enquiryKey).not.toBe('KeyOfThisEnquiry123456');
  });

  it('busy or unavailable by the answer’s reason, whatever its words: tried again by itself after Retry-After', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const apiRequest = vi
        .fn()
        .mockRejectedValueOnce(busy('busy'))
        .mockRejectedValueOnce(busy('unavailable'))
        .mockResolvedValueOnce(stored);
      const { result } = sendingWith(apiRequest);
      await act(() => result.current.sending.submit());
      expect(result.current.state.retry).toMatchObject({ reason: 'busy' });
      await act(() => vi.advanceTimersByTimeAsync(1_100));
      await act(() => vi.advanceTimersByTimeAsync(1_100));
      await waitFor(() => expect(result.current.state.status).toMatchObject({ kind: 'success' }));
      expect(apiRequest).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Cancel stops a waiting retry and keeps everything typed; one press at a time', async () => {
    const apiRequest = vi.fn().mockRejectedValue(lost());
    const { result } = sendingWith(apiRequest);
    await act(async () => {
      await Promise.all([result.current.sending.submit(), result.current.sending.submit()]);
    });
    expect(apiRequest).toHaveBeenCalledTimes(1);
    act(() => result.current.sending.cancel());
    expect(result.current.state.retry).toBeNull();
    expect(result.current.state.status).toEqual({ kind: 'note', message: sendingText.cancelled });
    expect(result.current.state.fields).toEqual(fields);
  });

  it('a refusal with field messages is shown, handed to the form to focus, and nothing is retried', async () => {
    const refused = new ApiError('HTTP 422', {
      kind: 'client',
      status: 422,
      body: {
        success: false,
        message: 'Please correct the highlighted fields.',
        reason: 'invalid',
        errors: [{ path: 'email', msg: 'No such address' }],
      },
    });
    const apiRequest = vi.fn().mockRejectedValueOnce(refused);
    const { result, onRefused } = sendingWith(apiRequest);
    await act(() => result.current.sending.submit());
    expect(result.current.state.status).toEqual({ kind: 'error', message: 'Please correct the highlighted fields.' });
    expect(onRefused).toHaveBeenCalledWith({ email: 'No such address' });
    expect(result.current.state.retry).toBeNull();
    expect(apiRequest).toHaveBeenCalledTimes(1);
  });
});
