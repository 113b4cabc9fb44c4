// One try's request and what is logged of its outcome: plain functions the sending hook calls.
import type { Dispatch } from 'react';
import type { apiRequest as defaultApiRequest, ApiResponse } from '@/lib/api-client';
import type { ContactOutcome } from '@/lib/contact-outcome';
import { PHOTO_FIELD } from '@/lib/contact-fields';
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

export function reportOutcome(logger: Logger, outcome: ContactOutcome, statusCode: number | null) {
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
