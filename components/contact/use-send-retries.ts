'use client';

// The press of Send being sent or waiting to be tried again, and the timer that tries it again: the same
// submission, with the same enquiry key, after the backoff or the busy server's Retry-After (planRetry),
// at once when the browser is back online, until it has kept failing for too long.
import { useEffect, useRef, type Dispatch } from 'react';
import { planRetry, type FormAction, type FormState, type RetryReason, type Submission } from '@/components/contact/contact-form-state';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';

type SendRetriesOptions = Pick<FormState, 'retry' | 'sendStoppedByEdit'> & {
  dispatch: Dispatch<FormAction>;
  /** One more try at the current submission. */
  tryAgain: () => void;
};

export function useSendRetries({ retry, sendStoppedByEdit, dispatch, tryAgain }: SendRetriesOptions) {
  /** The press of Send being sent or waiting to be retried; read by the tries, which outlive renders. */
  const submission = useRef<Submission | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // A send waiting to be tried again: at once when the browser is back online; a countdown meanwhile.
  useEffect(() => {
    if (!retry) return;
    const tick = setInterval(() => dispatch({ type: 'tick', now: Date.now() }), 1000);
    const online = () => {
      if (retry.reason !== 'busy') tryAgain();
    };
    window.addEventListener('online', online);
    return () => {
      clearInterval(tick);
      window.removeEventListener('online', online);
    };
    // tryAgain reads refs only; re-subscribing on each render would restart the countdown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [retry]);

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  // A waiting send an edit stopped (formReducer): let go of it. Told by the state, not inferred from
  // `retry` being empty: a retry's own try empties it too, and its effect may run after the try failed.
  useEffect(() => {
    if (!sendStoppedByEdit) return;
    clearTimeout(retryTimer.current);
    submission.current = null;
  }, [sendStoppedByEdit]);

  /** Nothing is tried again by the timer (a try starts now, or nothing waits any more). */
  function stopTimer() {
    clearTimeout(retryTimer.current);
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
    retryTimer.current = setTimeout(tryAgain, plan.delay);
    dispatch({ type: 'retryScheduled', retry: { reason, at: now + plan.delay }, now });
  }

  return { submissionRef: submission, stopTimer, scheduleRetry };
}
