// The machine-readable `reason` every refused answer of POST /api/contact carries besides its message
// for people (`{ success: false, message, reason, errors? }`): what the form decides on (try again by
// itself, which message to show), never the wording. Plain JavaScript so server.mjs, which refuses a
// cross-site post before Next sees it, names the same reasons.

export const RESPONSE_REASONS = /** @type {const} */ ([
  /** A field (or a photo) the rules refuse: `errors` says which. */
  'invalid',
  /** Not JSON, not an object, a broken multipart body. */
  'malformed',
  /** Neither JSON nor multipart. */
  'unsupported-type',
  /** More text, photos or bytes than an enquiry may have. */
  'too-large',
  /** An upload slower than the slowest the site waits for. */
  'too-slow',
  /** The reCAPTCHA token is missing or was not accepted. */
  'captcha',
  /** This client has sent too many: `Retry-After` says when it may again. */
  'rate-limited',
  /** No upload slot free now (or this client's earlier upload still arriving): try again after `Retry-After`. */
  'busy',
  /** The site cannot store enquiries just now: try again after `Retry-After`. */
  'unavailable',
  /** Posted from another website's page. */
  'cross-site',
  /** A kept claim named photos it sent ahead that the site no longer has (expired, or a restart): send them again. */
  'photos-missing',
  /** No room to keep a photo ahead of its claim (this client's share, or the site's): send the claim whole, its photos in its own body. */
  'send-whole',
]);

/** @typedef {(typeof RESPONSE_REASONS)[number]} ResponseReason */

/**
 * The reason an answer's body gives, or undefined (a success, or an answer that is not the site's, such
 * as a proxy's error page).
 * @param {unknown} body
 * @returns {ResponseReason | undefined}
 */
export function responseReason(body) {
  const reason = body !== null && typeof body === 'object' ? /** @type {{ reason?: unknown }} */ (body).reason : undefined;
  return RESPONSE_REASONS.find((known) => known === reason);
}
