'use client';

// One try at sending the current submission: a fresh reCAPTCHA token (they are single-use), the POST,
// then what its response or failure calls for: the outcome shown and logged, or a retry scheduled.
import { useEffect, useRef, type Dispatch } from 'react';
import type { apiRequest as defaultApiRequest } from '@/lib/api-client';
import type { ContactResponse } from '@/lib/contact-outcome';
import { afterFailedSend, type FormAction, type RetryReason, type Submission } from '@/components/contact/contact-form-state';
import { LOG_SOURCE, postEnquiry, showOutcome } from '@/components/contact/enquiry-post';
import type { useSendRetries } from '@/components/contact/use-send-retries';
import type { useKeptClaim } from '@/components/contact/use-kept-claim';
import type { FormErrors } from '@/lib/contact-fields';
import type { Logger } from '@/lib/logger';
import { recaptchaToken } from '@/lib/recaptcha-client';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';
import { keptClaimText } from '@/content/offline';

type EnquirySendOptions = {
  dispatch: Dispatch<FormAction>;
  siteKey: string;
  endpoint: string;
  apiRequest: typeof defaultApiRequest;
  logger: Logger;
  onRefused: (errors: FormErrors) => void;
  retries: ReturnType<typeof useSendRetries>;
  /** Where a send that found no signal goes: the service worker, when one looks after the page. */
  keptClaim: ReturnType<typeof useKeptClaim>;
  /** The photos' previews and the draft let go once the enquiry is sent. */
  discardEntries: () => void;
};

export function useEnquirySend({
  dispatch,
  siteKey,
  endpoint,
  apiRequest,
  logger,
  onRefused,
  retries,
  keptClaim,
  discardEntries,
}: EnquirySendOptions) {
  const { submissionRef, scheduleRetry } = retries;
  /** The try in flight: what Cancel aborts, and what keeps a second try from starting meanwhile. */
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  const connectionReason = (): RetryReason => (navigator.onLine === false ? 'offline' : 'lost');

  /**
   * A try that found no connection (or lost it before the answer): kept on the phone by the service
   * worker, to be sent when there is a signal even if the page is closed; without a worker, or with no
   * room on the phone (said, and everything typed stays), tried again from this page as before.
   */
  async function keepOrRetry(current: Submission, reason: RetryReason, retryAfterSeconds?: number) {
    if (reason !== 'busy') {
      const kept = await keptClaim.keepOnPhone(current);
      if (kept === 'kept' || kept === 'quota') {
        // Over for this page: the worker sends it, or the visitor decides what to do.
        submissionRef.current = null;
        retries.stopTimer();
        dispatch(kept === 'kept' ? { type: 'keptOnPhone' } : { type: 'failed', message: keptClaimText.quota });
        return;
      }
    }
    scheduleRetry(reason, retryAfterSeconds);
  }

  /** A fresh reCAPTCHA token ('' without a site key), or null when there is none (the failure already dealt with). */
  async function freshToken(current: Submission): Promise<string | null> {
    if (!siteKey) return '';
    try {
      return await recaptchaToken(siteKey);
    } catch (error) {
      // Google's script cannot load while the connection is down: the same failure as the send's. A phone
      // with bars but no data says it is online, so wherever a worker can keep the claim, it does (sent
      // later without a token, and stored unverified where bot protection is on).
      if (current.firstFailureAt !== null || navigator.onLine === false || keptClaim.canKeep()) {
        await keepOrRetry(current, connectionReason());
        return null;
      }
      logger.error(CONTACT_OUTCOME_MESSAGES.recaptchaLoad, { source: LOG_SOURCE, category: 'network', error });
      // Over: the next Send starts a new submission.
      submissionRef.current = null;
      dispatch({ type: 'failed', message: CONTACT_OUTCOME_MESSAGES.failed });
      return null;
    }
  }

  /** One try: a token, the POST, then what its response or failure calls for. */
  async function sendOnce(current: Submission, signal: AbortSignal) {
    const token = await freshToken(current);
    if (token === null || signal.aborted) return;
    let response: ContactResponse;
    try {
      const sent = await postEnquiry({ apiRequest, endpoint, dispatch }, current, token, signal);
      response = { status: sent.status, body: sent.data };
    } catch (error) {
      const failed = afterFailedSend(error, navigator.onLine === false);
      if (failed.next === 'stop') return;
      if (failed.next === 'retry') return keepOrRetry(current, failed.reason, failed.retryAfterSeconds);
      response = failed.response;
    }
    // The submission is over.
    submissionRef.current = null;
    showOutcome({ dispatch, logger, onRefused, discardEntries }, current, response);
  }

  /** One try at sending the current submission, unless none is waiting or one is in flight. */
  async function attempt() {
    const current = submissionRef.current;
    if (!current || inFlight.current) return;
    retries.stopTimer();
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

  /** Cancel: the try in flight (if any) is aborted. */
  const abort = () => inFlight.current?.abort();

  return { attempt, abort };
}
