// The pages of a claim after its enquiry: the look-up "Where's my repair?" (`/track`, posted to
// itself), the customer's status by signed link (`/track/<token>`) and the company's staff page by
// signed link (`/claim-update/<token>`, posted to itself). What server.mjs lets a post to them bring,
// and which paths carry a signed link's token (never cached, indexed or sent on as a referrer).
// Plain JavaScript (typed by JSDoc) so server.mjs and server/response-headers.mjs run it with no compile step.
import { STAFF_LINK_PREFIX, TRACK_PATH } from '../lib/claim-paths.mjs';
import { declaredLength } from './server-limits.mjs';

/** A look-up or a staff update: a few short fields and React's own, far below this. */
export const CLAIM_FORM_MAX_BYTES = 32 * 1024;

/** @param {string} pathname a normalised path */
export const isSignedLinkPath = (pathname) => {
  const [, page, token, ...rest] = pathname.split('/');
  return (page === 'track' || page === 'claim-update') && Boolean(token) && rest.length === 0;
};

/** @param {string} pathname a normalised path: whether a form of a claim page posts to it */
export const isClaimFormPath = (pathname) =>
  pathname === TRACK_PATH || (pathname.startsWith(STAFF_LINK_PREFIX) && isSignedLinkPath(pathname));

/**
 * Why a post to a claim page is refused before its body is read, or undefined: 415 unless it is a
 * multipart form, 411 without a Content-Length, 413 over CLAIM_FORM_MAX_BYTES.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {{ status: 415 | 411 | 413 } | undefined}
 */
export function claimFormPostRefusal(headers) {
  const mediaType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'multipart/form-data') return { status: 415 };
  const declared = declaredLength(headers['content-length']);
  if (declared === undefined) return { status: 411 };
  if (declared > CLAIM_FORM_MAX_BYTES) return { status: 413 };
  return undefined;
}
