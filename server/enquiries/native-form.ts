import 'server-only';
import { photoText } from '@/content/contact';
import { CLAIM_FIELDS, FORM_FIELDS, PHOTO_FIELD, isClaimField, isFormField, type FormField } from '@/lib/contact-fields';
import { contactOutcome } from '@/lib/contact-outcome';
import { ENQUIRY_KEY_FIELD, isEnquiryKey, newEnquiryKey } from '@/lib/enquiry-key';
import { CLAIM_TOGGLE_FIELD, CLAIM_TOGGLE_VALUE, type NativeFormState } from '@/lib/native-form-state';
import { CLIENT_ADDRESS_HEADER } from '@/server/proxy-client-address.mjs';
import { handleContactRequest } from '@/server/enquiries/contact-handler';
import type { HandlerResult } from '@/server/http';

type NativeFormResult = { kind: 'sent'; reference: string | null; urgent: boolean } | NativeFormState;

/**
 * The contact form as a browser posts it before (or without) its JavaScript: the same fields and
 * photos, handed to the one contact handler as a multipart request, so every rule, budget, slot and
 * limit is the scripted form's. What differs: the claim part counts only when its box was ticked, the
 * enquiry is stored unverified (bot protection runs in the page's script) and never acknowledged, and
 * a refusal comes back as the state the page renders again, with every typed value.
 */
export async function sendNativeForm(
  form: FormData,
  requestHeaders: Headers,
  handle: (request: Request, options: { sentWithoutScript: boolean }) => Promise<HandlerResult> = handleContactRequest,
): Promise<NativeFormResult> {
  const claimOpen = form.get(CLAIM_TOGGLE_FIELD) === CLAIM_TOGGLE_VALUE;
  const body = new FormData();
  let photos = 0;
  for (const [name, value] of form) {
    // React's own fields ($ACTION_ID_…, $ACTION_KEY), the toggle, and a closed claim part's fields.
    if (name.startsWith('$ACTION') || name === CLAIM_TOGGLE_FIELD || (!claimOpen && isClaimField(name))) continue;
    if (typeof value === 'string') body.append(name, value);
    else if (name === PHOTO_FIELD && value.size > 0) {
      body.append(name, value, value.name);
      photos += 1;
    }
  }
  const request = new Request('http://localhost/api/contact', {
    method: 'POST',
    body,
    headers: { [CLIENT_ADDRESS_HEADER]: requestHeaders.get(CLIENT_ADDRESS_HEADER) ?? '' },
  });
  const result = await handle(request, { sentWithoutScript: true });
  const answer = result.body as Record<string, unknown>;
  if (result.status === 201)
    return { kind: 'sent', reference: typeof answer.reference === 'string' ? answer.reference : null, urgent: answer.urgent === true };

  const outcome = contactOutcome({ status: result.status, body: answer }, { sentPhotos: photos > 0 });
  const message = outcome.kind === 'error' ? outcome.message : String(answer.message ?? '');
  const values: Partial<Record<FormField, string>> = {};
  for (const field of FORM_FIELDS) {
    const value = form.get(field);
    if (typeof value === 'string' && (claimOpen || !CLAIM_FIELDS.includes(field as never))) values[field] = value;
  }
  const errors = outcome.kind === 'error' ? { ...outcome.fieldErrors } : {};
  const postedKey = form.get(ENQUIRY_KEY_FIELD);
  // A file input cannot be filled in again by the server: the visitor is asked to choose the photos again.
  if (photos > 0 && !errors[PHOTO_FIELD]) errors[PHOTO_FIELD] = photoText.chooseAgain;
  return {
    kind: 'refused',
    message,
    errors: Object.fromEntries(Object.entries(errors).filter(([field]) => isFormField(field))),
    values,
    claimOpen,
    enquiryKey: isEnquiryKey(postedKey) ? postedKey : newEnquiryKey(),
  };
}
