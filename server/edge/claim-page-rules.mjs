// The pages of a claim after its enquiry: the look-up "Where's my repair?" (`/track`, posted to
// itself), the signed links in the e-mails (`/track/<token>`, `/claim-update/<token>`), which trade
// their token for a cookie and move on to the customer's status page (`/claims/<reference>`) and the
// company's staff page (`/claims/<reference>/update`, posted to itself, as the status page is by an
// instruction's sender confirming it); and the status page's electricity statement (`/claims/<reference>/electricity.pdf`, posted with the customer's unit rate).
// What server.mjs lets a post to them bring, which paths carry a signed link's token (never cached,
// indexed or sent on as a referrer), and which pages a link opens (never cached or indexed).
// Plain JavaScript (typed by JSDoc) so server.mjs and server/edge/response-headers.mjs run it with no compile step.
import { CLAIM_PAGE_PREFIX, TRACK_PATH } from '../../lib/claim-paths.mjs';
import { mediaTypeOf } from '../base/media-type.mjs';
import { declaredLength } from './server-limits.mjs';

/** A look-up or a staff update: a few short fields and React's own, far below this. */
export const CLAIM_FORM_MAX_BYTES = 32 * 1024;

/**
 * A path with a claim link's token in it: the two links, and the read-only address the drying
 * documents print (`/verify/<token>`).
 * @param {string} pathname a normalised path
 */
export const isSignedLinkPath = (pathname) => {
  const [, page, token, ...rest] = pathname.split('/');
  return (page === 'track' || page === 'claim-update' || page === 'verify') && Boolean(token) && rest.length === 0;
};

/** @param {string} pathname a normalised path: a page a signed link opens, by the claim's reference */
export const isClaimPagePath = (pathname) => {
  if (!pathname.startsWith(CLAIM_PAGE_PREFIX)) return false;
  const [reference, page, ...rest] = pathname.slice(CLAIM_PAGE_PREFIX.length).split('/');
  return Boolean(reference) && (page === undefined || page === 'update') && rest.length === 0;
};

/** @param {string} pathname a normalised path: the electricity statement, posted with the customer's unit rate */
const isStatementPath = (pathname) => {
  if (!pathname.startsWith(CLAIM_PAGE_PREFIX)) return false;
  const [reference, document, ...rest] = pathname.slice(CLAIM_PAGE_PREFIX.length).split('/');
  return Boolean(reference) && document === 'electricity.pdf' && rest.length === 0;
};

/**
 * @param {string} pathname a normalised path: whether a form of a claim page posts to it (the look-up,
 * the staff page's, the status page's confirmation of an instruction, the electricity statement)
 */
export const isClaimFormPath = (pathname) => pathname === TRACK_PATH || isClaimPagePath(pathname) || isStatementPath(pathname);

/**
 * Why a post to a claim page is refused before its body is read, or undefined: 415 unless it is a
 * multipart form, 411 without a Content-Length, 413 over CLAIM_FORM_MAX_BYTES.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {{ status: 415 | 411 | 413 } | undefined}
 */
export function claimFormPostRefusal(headers) {
  if (mediaTypeOf(headers['content-type']) !== 'multipart/form-data') return { status: 415 };
  const declared = declaredLength(headers['content-length']);
  if (declared === undefined) return { status: 411 };
  if (declared > CLAIM_FORM_MAX_BYTES) return { status: 413 };
  return undefined;
}
