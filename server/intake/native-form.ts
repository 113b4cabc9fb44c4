import 'server-only';
import { photoText } from '@/content/contact';
import { CLAIM_FIELDS, FORM_FIELDS, PHOTO_FIELD, isClaimField, isFormField, type FormErrors, type FormField } from '@/lib/contact-fields';
import { ENQUIRY_TEXT_MAX_BYTES, MULTIPART_MAX_FIELDS, PHOTO_MAX_BYTES, PHOTO_MAX_COUNT } from '@/lib/enquiry-rules.mjs';
import { ENQUIRY_KEY_FIELD, isEnquiryKey, newEnquiryKey } from '@/lib/enquiry-key';
import { CLAIM_TOGGLE_FIELD, CLAIM_TOGGLE_VALUE, type NativeFormState } from '@/lib/native-form-state';
import { clientAddress } from '@/server/edge/client-address.mjs';
import { portfolioCookieOf } from '@/server/portfolio/signed-in-sender';
import { displayName, type ReadingRefusal } from '@/server/intake/multipart-enquiry';
import { enquiryReceiver, readingRefusal, type EnquiryReceiver, type NotStored } from '@/server/intake/receive-enquiry';
import type { ReceivedPhoto } from '@/server/intake/photo-intake';

type NativeFormResult = { kind: 'sent'; reference: string | null; urgent: boolean } | NativeFormState;

const HEAD_BYTES = 32;

/**
 * The form's fields and photos from the FormData Next parsed (its body came in by the upload gate of
 * server.mjs, under a slot, its size capped there): the claim part only when its box was ticked, the
 * first value of each field, React's own fields ($ACTION_ID_…, $ACTION_KEY) left out. The same limits
 * as the scripted form's multipart body, checked here since nothing streamed.
 */
async function readForm(form: FormData, claimOpen: boolean, keepPhotos: boolean) {
  const fields: Record<string, string> = {};
  const files: File[] = [];
  let textBytes = 0;
  for (const [name, value] of form) {
    if (name.startsWith('$ACTION') || name === CLAIM_TOGGLE_FIELD || (!claimOpen && isClaimField(name))) continue;
    if (typeof value !== 'string') {
      if (name === PHOTO_FIELD && value.size > 0) files.push(value);
      continue;
    }
    textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (!(name in fields)) fields[name] = value;
  }
  const refusal = ((): ReadingRefusal | undefined => {
    if (textBytes > ENQUIRY_TEXT_MAX_BYTES || Object.keys(fields).length > MULTIPART_MAX_FIELDS) return { reason: 'text-too-large' };
    if (files.length > PHOTO_MAX_COUNT) return { reason: 'too-many-photos', file: displayName(files[PHOTO_MAX_COUNT]?.name) };
    const tooLarge = files.find((file) => file.size > PHOTO_MAX_BYTES);
    if (tooLarge) return { reason: 'photo-too-large', file: displayName(tooLarge.name) };
    return undefined;
  })();
  if (refusal) return { ok: false as const, refusal, files };
  const photos: ReceivedPhoto[] = await Promise.all(
    files.map(async (file) => ({
      name: displayName(file.name),
      bytes: file.size,
      head: new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer()),
      ...(keepPhotos ? { source: Buffer.from(await file.arrayBuffer()) } : {}),
    })),
  );
  return { ok: true as const, fields, photos, files };
}

/**
 * The contact form as a browser posts it before (or without) its JavaScript, handed to the enquiry
 * receiver like the scripted form's: every rule, budget and limit is the same. What differs: the claim
 * part counts only when its box was ticked, the enquiry is stored unverified (bot protection runs in the
 * page's script) and never acknowledged, and a refusal comes back as the state the page renders again,
 * with every typed value.
 */
export async function sendNativeForm(
  form: FormData,
  requestHeaders: Headers,
  receiver: EnquiryReceiver = enquiryReceiver(),
): Promise<NativeFormResult> {
  const client = clientAddress(requestHeaders);
  const claimOpen = form.get(CLAIM_TOGGLE_FIELD) === CLAIM_TOGGLE_VALUE;
  const refusedAs = (result: NotStored, sentPhotos: boolean) => refusedState(form, result, claimOpen, sentPhotos);

  const early = receiver.turnAway(client);
  if (early) return refusedAs(early, false);
  const read = await readForm(form, claimOpen, await receiver.photosCanBeKept());
  if (!read.ok) return refusedAs(receiver.refuse(client, readingRefusal(read.refusal)), read.files.length > 0);
  const result = await receiver.receive({
    fields: read.fields,
    photos: read.photos,
    client,
    sentWithoutScript: true,
    portfolioSession: portfolioCookieOf(requestHeaders),
  });
  if (result.kind === 'stored') return { kind: 'sent', reference: result.reference ?? null, urgent: result.urgent };
  return refusedAs(result, read.files.length > 0);
}

/** The form rendered again: the message, each field's error, every typed value, the enquiry's key. */
function refusedState(form: FormData, result: NotStored, claimOpen: boolean, sentPhotos: boolean): NativeFormState {
  const values: Partial<Record<FormField, string>> = {};
  for (const field of FORM_FIELDS) {
    const value = form.get(field);
    if (typeof value === 'string' && (claimOpen || !CLAIM_FIELDS.includes(field as never))) values[field] = value;
  }
  const errors: FormErrors = {};
  for (const { path, msg } of result.kind === 'refused' ? (result.errors ?? []) : [])
    if (isFormField(path) && !errors[path]) errors[path] = msg;
  // A file input cannot be filled in again by the server: the visitor is asked to choose the photos again.
  if (sentPhotos && !errors[PHOTO_FIELD]) errors[PHOTO_FIELD] = photoText.chooseAgain;
  const postedKey = form.get(ENQUIRY_KEY_FIELD);
  return {
    kind: 'refused',
    message: result.message,
    errors,
    values,
    claimOpen,
    enquiryKey: isEnquiryKey(postedKey) ? postedKey : newEnquiryKey(),
  };
}
