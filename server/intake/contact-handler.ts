import 'server-only';
import { CONTACT_RESPONSES } from '@/content/contact';
import { ENQUIRY_TEXT_MAX_BYTES } from '@/lib/enquiry-rules.mjs';
import { clientAddress } from '@/server/edge/client-address.mjs';
import { portfolioCookieOf } from '@/server/portfolio/signed-in-sender';
import { KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE, STAGE_PHOTO_FIELD, STAGED_PHOTOS_FIELD } from '@/lib/offline/protocol';
import { createKeptClaimPhotos, type KeptClaimPhotosDeps, type PhotoSentAhead } from '@/server/intake/kept-claim-photos';
import {
  createEnquiryReceiver,
  enquiryReceiver,
  Refusal,
  readingRefusal,
  type EnquiryReceiver,
  type EnquiryReceiverDeps,
  type EnquiryResult,
} from '@/server/intake/receive-enquiry';
import { failure, readJsonBody, requestMediaType, type HandlerResult } from '@/server/base/http';

/** A JSON body, at most ENQUIRY_TEXT_MAX_BYTES, that is an object: the enquiry's fields. */
async function readJsonFields(request: Request): Promise<object | Refusal> {
  const body = await readJsonBody(request, ENQUIRY_TEXT_MAX_BYTES);
  if (!body.ok) {
    const message = { 415: CONTACT_RESPONSES.unsupportedType, 413: CONTACT_RESPONSES.tooLarge, 400: CONTACT_RESPONSES.malformed }[
      body.status
    ];
    const reason = ({ 415: 'unsupported-type', 413: 'too-large', 400: 'malformed' } as const)[body.status];
    return new Refusal(reason, body.status, message);
  }
  const input = body.value;
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return new Refusal('malformed', 400, CONTACT_RESPONSES.notObject);
  return input;
}

/** What the route answers for a result: the spec's `success`, `message` and `errors`, and a `reason`. */
export function contactAnswer(result: EnquiryResult | PhotoSentAhead): HandlerResult {
  switch (result.kind) {
    case 'staged':
      return { status: 201, body: { success: true, message: CONTACT_RESPONSES.photoAheadStaged, staged: result.id } };
    case 'stored':
      return {
        status: 201,
        body: {
          success: true,
          message: CONTACT_RESPONSES.success,
          ...(result.reference ? { reference: result.reference } : {}),
          ...(result.urgent ? { urgent: true } : {}),
          ...(result.photosNotKept > 0 ? { photosNotKept: result.photosNotKept } : {}),
        },
      };
    case 'refused':
      return failure(result.status, result.message, { reason: result.reason, ...(result.errors ? { errors: result.errors } : {}) });
    case 'busy':
      return failure(result.status, result.message, { reason: result.reason }, { 'Retry-After': String(result.retryAfterSeconds) });
  }
}

/**
 * POST /api/contact, the scripted form's way in: JSON, or multipart with photos (which came in by the
 * upload gate of server.mjs, under an upload slot and its minimum rate). The body is read once by the
 * photo intake, its photos streamed to a temporary folder, and handed to the enquiry receiver.
 */
export function createContactHandler(receiverOrDeps: EnquiryReceiver | EnquiryReceiverDeps = {}, keptClaimDeps: KeptClaimPhotosDeps = {}) {
  const receiver = 'receive' in receiverOrDeps ? receiverOrDeps : createEnquiryReceiver(receiverOrDeps);
  const keptClaims = createKeptClaimPhotos(receiver, { db: 'db' in receiverOrDeps ? receiverOrDeps.db : undefined, ...keptClaimDeps });

  return async function handleContact(request: Request): Promise<HandlerResult> {
    const client = clientAddress(request.headers);
    const keptOnPhone = request.headers.get(KEPT_CLAIM_HEADER) === KEPT_CLAIM_HEADER_VALUE;
    const portfolioSession = portfolioCookieOf(request.headers);
    const early = receiver.turnAway(client);
    if (early) return contactAnswer(early);

    if (requestMediaType(request) !== 'multipart/form-data') {
      const fields = await readJsonFields(request);
      if (fields instanceof Refusal) return contactAnswer(receiver.refuse(client, fields));
      // A kept claim whose photos were sent ahead of it, one request each.
      if (keptOnPhone && STAGED_PHOTOS_FIELD in fields) {
        return contactAnswer(await keptClaims.receiveWithStaged(client, fields as Record<string, unknown>));
      }
      return contactAnswer(await receiver.receive({ fields, photos: [], client, sentWithoutScript: false, keptOnPhone, portfolioSession }));
    }

    const result = await receiver.readUpload<EnquiryResult | PhotoSentAhead>(
      request,
      (refusal) => receiver.refuse(client, readingRefusal(refusal)),
      ({ fields, photos }) =>
        keptOnPhone && STAGE_PHOTO_FIELD in fields
          ? keptClaims.stage(client, fields, photos)
          : receiver.receive({ fields, photos, client, sentWithoutScript: false, keptOnPhone, portfolioSession }),
    );
    return contactAnswer(result);
  };
}

let shared: ReturnType<typeof createContactHandler> | undefined;

/** The route's handler, over the process's enquiry receiver. */
export function handleContactRequest(request: Request): Promise<HandlerResult> {
  shared ??= createContactHandler(enquiryReceiver());
  return shared(request);
}
