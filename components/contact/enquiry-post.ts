// One try's request, and its outcome shown and logged: plain functions the sending hook calls.
import type { Dispatch } from 'react';
import type { apiRequest as defaultApiRequest, ApiResponse } from '@/lib/api-client';
import { contactOutcome, type ContactOutcome, type ContactResponse } from '@/lib/contact-outcome';
import { PHOTO_FIELD, type FormErrors } from '@/lib/contact-fields';
import { newEnquiryKey } from '@/lib/enquiry-key';
import type { Logger } from '@/lib/logger';
import type { FormAction, Submission } from '@/components/contact/contact-form-state';

export const LOG_SOURCE = 'contact-form';

type PostOptions = {
  apiRequest: typeof defaultApiRequest;
  endpoint: string;
  dispatch: Dispatch<FormAction>;
};

/** The POST itself: JSON, or multipart with the photos and a progress bar. */
export async function postEnquiry(
  { apiRequest, endpoint, dispatch }: PostOptions,
  current: Submission,
  token: string,
  signal: AbortSignal,
): Promise<ApiResponse<unknown>> {
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

function reportOutcome(logger: Logger, outcome: ContactOutcome, statusCode: number | null) {
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

type OutcomeOptions = {
  dispatch: Dispatch<FormAction>;
  logger: Logger;
  onRefused: (errors: FormErrors) => void;
  /** The photos' previews and the draft let go once the enquiry is sent. */
  discardEntries: () => void;
};

/** What the visitor sees once the server responded (or plainly could not be reached), and what is logged of it. */
export function showOutcome(
  { dispatch, logger, onRefused, discardEntries }: OutcomeOptions,
  current: Submission,
  response: ContactResponse,
) {
  const outcome = contactOutcome(response, { sentPhotos: current.photos.length > 0 });
  reportOutcome(logger, outcome, response.status === 'no-answer' ? null : response.status);
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
