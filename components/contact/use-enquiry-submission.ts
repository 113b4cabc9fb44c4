'use client';

// Everything between the press of Send and what the visitor is told, apart from the fields, composed of
// one hook per concern: the draft kept on the device (use-enquiry-draft), the checks (use-enquiry-checks),
// the tries with a fresh reCAPTCHA token each, JSON or multipart with progress (use-enquiry-send), and
// the automatic retries after a lost response or a busy server (use-send-retries). This hook adds Send,
// Cancel and Clear form. The form renders fields and states; this hook sends.
import type { Dispatch } from 'react';
import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import type { FormAction, FormState } from '@/components/contact/contact-form-state';
import { newSubmission } from '@/components/contact/contact-form-state';
import { useEnquiryChecks } from '@/components/contact/use-enquiry-checks';
import { useEnquiryDraft } from '@/components/contact/use-enquiry-draft';
import { useEnquirySend } from '@/components/contact/use-enquiry-send';
import { useSendRetries } from '@/components/contact/use-send-retries';
import { useKeptClaim } from '@/components/contact/use-kept-claim';
import type { FormErrors } from '@/lib/contact-fields';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import { newEnquiryKey } from '@/lib/enquiry-key';

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
  const { fields, claimOpen, enquiryKey, photos, status, retry, sendStoppedByEdit } = state;
  const draft = useEnquiryDraft({ fields, claimOpen, enquiryKey, photos, status, dispatch, restoreDraft });
  // The retries try again through this render's `attempt` (declared below; called only later, by a timer or an event).
  const retries = useSendRetries({ retry, sendStoppedByEdit, dispatch, tryAgain: () => void tries.attempt() });
  const { submissionRef } = retries;
  const keptClaim = useKeptClaim({ dispatch, enquiryKey, endpoint, discardEntries: draft.discardEntries });
  const tries = useEnquirySend({
    dispatch,
    siteKey,
    endpoint,
    apiRequest,
    logger,
    onRefused,
    retries,
    keptClaim,
    discardEntries: draft.discardEntries,
  });
  const checks = useEnquiryChecks({ state, dispatch, siteKey, acceptsPhotos, logger, onRefused });

  /** Clear form: nothing waits to be sent, the previews and the draft go, the form empties. */
  function clear() {
    retries.stopTimer();
    draft.discardEntries();
    dispatch({ type: 'cleared', nextKey: newEnquiryKey() });
  }

  function cancel() {
    submissionRef.current = null;
    retries.stopTimer();
    tries.abort();
    dispatch({ type: 'cancelled' });
  }

  /** A press of Send: one submission at a time from the first click on, while the checks (maybe still loading) run. */
  async function submit() {
    if (submissionRef.current) return;
    submissionRef.current = newSubmission();
    const ready = await checks.checkedSubmission();
    submissionRef.current = ready;
    if (ready) await tries.attempt();
  }

  return { engage: checks.engage, submit, sendNow: () => void tries.attempt(), cancel, clear, photosChanged: draft.photosChanged };
}
