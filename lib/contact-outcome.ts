import { CONTACT_OUTCOME_MESSAGES, photoText } from '@/content/contact';
import { isFormField, type FormErrors } from '@/lib/contact-fields';
import { isEnquiryReference } from '@/lib/enquiry-reference';
import { responseReason } from '@/lib/contact-response.mjs';

/** What came back from POST /api/contact: an answer (any status, parsed body) or none at all. */
export type ContactResponse = { status: number; body: unknown } | { status: 'no-answer' };

/** `reference`: the enquiry's, when the answer carried a well-formed one. */
/** `photosNotKept`: the enquiry was stored but its photos were not (the server's photo storage is full). */
export type ContactOutcome =
  | { kind: 'success'; message: string; reference?: string; photosNotKept?: boolean }
  | { kind: 'error'; message: string; fieldErrors: FormErrors };

function record(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function serverMessage(body: Record<string, unknown>): string | undefined {
  return typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
}

/** Field errors the server returned (`errors: [{path, msg}]`) for fields the form has; the first per field. */
function serverFieldErrors(body: unknown): FormErrors {
  const list = record(body).errors;
  const errors: FormErrors = {};
  if (!Array.isArray(list)) return errors;
  for (const item of list) {
    const { path, msg } = record(item);
    const field = Array.isArray(path) ? path.join('.') : path;
    if (isFormField(field) && typeof msg === 'string' && msg.trim() && !errors[field]) errors[field] = msg;
  }
  return errors;
}

/**
 * Maps the response of a submission to what the visitor sees: the contact form's catalogue of messages.
 * `sentPhotos`: the request carried photos. A proxy in front of the site that refuses or drops a large
 * upload (413, 502, 504) responds with its own page rather than the site's JSON; the visitor is then
 * told that the photos could not be sent, not only that sending failed.
 */
export function contactOutcome(response: ContactResponse, options: { sentPhotos?: boolean } = {}): ContactOutcome {
  if (response.status === 'no-answer') return { kind: 'error', message: CONTACT_OUTCOME_MESSAGES.failed, fieldErrors: {} };
  const body = record(response.body);
  const ok = response.status >= 200 && response.status < 300;
  const reason = responseReason(body);
  // Any 429 reads as "too many", as it always has: our busy one is tried again before it is shown.
  const rateLimited = reason === 'rate-limited' || response.status === 429;
  if (options.sentPhotos && !ok && !rateLimited && !('success' in body))
    return { kind: 'error', message: photoText.notSent, fieldErrors: {} };
  if (ok && body.success !== false) {
    const message = serverMessage(body) ?? CONTACT_OUTCOME_MESSAGES.success;
    const photosNotKept = typeof body.photosNotKept === 'number' && body.photosNotKept > 0 ? { photosNotKept: true } : {};
    return isEnquiryReference(body.reference)
      ? { kind: 'success', message, reference: body.reference, ...photosNotKept }
      : { kind: 'success', message, ...photosNotKept };
  }
  const fieldErrors = serverFieldErrors(body);
  if (rateLimited) return { kind: 'error', message: CONTACT_OUTCOME_MESSAGES.tooManyRequests, fieldErrors };
  if (ok) return { kind: 'error', message: serverMessage(body) ?? CONTACT_OUTCOME_MESSAGES.failedWithoutMessage, fieldErrors };
  return { kind: 'error', message: serverMessage(body) ?? CONTACT_OUTCOME_MESSAGES.failed, fieldErrors };
}
