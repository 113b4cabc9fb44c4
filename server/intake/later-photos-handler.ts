import 'server-only';
import { business } from '@/content/business';
import { laterPhotosPageLinks, laterPhotosText } from '@/content/later-photos';
import { TRACK_PATH, claimStatusPath } from '@/lib/claim-paths.mjs';
import { clientAddress } from '@/server/edge/client-address.mjs';
import { createLaterPhotos, type LaterPhotos, type LaterPhotosResult } from '@/server/intake/later-photos';
import { refusalPage } from '@/server/edge/contact-page-post.mjs';
import { requestMediaType } from '@/server/base/http';
import { photoIntake } from '@/server/intake/photo-intake';

/** The status page's form, scripted, asks for JSON; posted without script, it is a browser's navigation. */
const wantsJson = (request: Request) => (request.headers.get('accept') ?? '').includes('application/json');

/**
 * The answer: JSON for the scripted form (`success`, `message`, `reason`, and with a refusal that asks
 * to wait, `retryAfterSeconds` as in its Retry-After header); for the form posted without
 * script, a redirect (303) back to the claim's status page by reference, which says what became of the photos from
 * a fixed list (`photos`, and `count` when added: nothing typed goes in the URL), or a short page when
 * no claim was opened.
 */
export function laterPhotosAnswer(result: LaterPhotosResult, json: boolean): Response {
  const retryAfter: Record<string, string> =
    result.kind === 'refused' && result.retryAfterSeconds ? { 'Retry-After': String(result.retryAfterSeconds) } : {};
  if (json) {
    const body =
      result.kind === 'added'
        ? { success: true, message: result.message, reference: result.reference, count: result.count }
        : {
            success: false,
            message: result.message,
            reason: result.outcome,
            ...(result.retryAfterSeconds ? { retryAfterSeconds: result.retryAfterSeconds } : {}),
          };
    return Response.json(body, { status: result.status, headers: { 'Cache-Control': 'no-store', ...retryAfter } });
  }
  if (result.reference) {
    const query = result.kind === 'added' ? `photos=added&count=${result.count}` : `photos=${result.outcome}`;
    return new Response(null, {
      status: 303,
      // Back to the status page the form is on: the post came from this site, so its cookie goes along.
      headers: { Location: `${claimStatusPath(result.reference)}?${query}`, 'Cache-Control': 'no-store' },
    });
  }
  const page = { title: laterPhotosText.heading, text: result.message };
  return new Response(
    refusalPage(page, { back: laterPhotosPageLinks.back, backHref: TRACK_PATH, call: laterPhotosPageLinks.call, phone: business.phone }),
    { status: result.status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...retryAfter } },
  );
}

/**
 * POST /claims/<reference>/photos: the claim the status page's cookie opens by that reference is
 * checked first, before a byte of the body is read (a cookie that opens nothing costs no upload: 404,
 * counted against the client); then the multipart body, which came in
 * by the upload gate of server.mjs under an upload slot and its minimum rate, is read once by the photo
 * intake, its photos streamed to a temporary folder, and handed to the photos-later receiver.
 */
export function createLaterPhotosHandler(receiver: LaterPhotos) {
  return async function handleLaterPhotos(request: Request, reference: string, session: string | undefined): Promise<Response> {
    const json = wantsJson(request);
    const client = clientAddress(request.headers);
    const early = receiver.turnAway(client);
    if (early) return laterPhotosAnswer(early, json);
    const unknown = await receiver.refuseUnknownClaim(client, reference, session);
    if (unknown) return laterPhotosAnswer(unknown, json);
    if (requestMediaType(request) !== 'multipart/form-data')
      return laterPhotosAnswer(receiver.refuseReading(client, { reason: 'malformed' }, reference), json);

    const result = await receiver.readUpload(
      request,
      (refusal) => receiver.refuseReading(client, refusal, reference),
      ({ photos }) => receiver.add({ reference, session, photos, client }),
    );
    return laterPhotosAnswer(result, json);
  };
}

let shared: ReturnType<typeof createLaterPhotosHandler> | undefined;

/** The route's handler, on the process's photo intake: the enquiry form's own budgets per client. Made on first use. */
export function handleLaterPhotosRequest(request: Request, reference: string, session: string | undefined): Promise<Response> {
  shared ??= createLaterPhotosHandler(createLaterPhotos({ intake: photoIntake() }));
  return shared(request, reference, session);
}
