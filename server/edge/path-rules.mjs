// Every path the site's server treats on its own, in one table: what server.mjs does with a body
// posted there before Next reads a byte of it, and which headers server/edge/response-headers.mjs puts on
// its answers. A path not in the table takes a body only under /api/ (server-limits.mjs), and every
// body is refused when it comes from another site (request-origin.mjs).
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { LARGEST_BODY_BYTES } from '../../lib/enquiry-rules.mjs';
import { RETIRED_LATER_PHOTOS_PREFIX } from '../../lib/claim-paths.mjs';
import { PORTFOLIO_PATH, isPortfolioLinkPath, isPortfolioPagePath } from '../../lib/portfolio/portfolio-paths.mjs';
import { CLAIM_FORM_MAX_BYTES, isClaimFormPath, isClaimPagePath, isSignedLinkPath } from './claim-page-rules.mjs';
import { PAGE_METHODS } from './server-limits.mjs';
import { UPLOAD_PATHS, uploadPathOf } from './upload-gate.mjs';

/**
 * @typedef {object} BodyRule What a request with a body (any method but GET, HEAD and OPTIONS) gets.
 * @property {'gone' | 'upload' | 'json-or-upload' | 'small-form'} takes `gone`: answered 410 unread;
 *   `upload`: a multipart form with photos, by the upload gate (server/edge/upload-gate.mjs: a slot, a
 *   minimum rate, strikes for slow or abandoned uploads); `json-or-upload`: JSON goes to Next under the
 *   body guard, a multipart form by the upload gate; `small-form`: a multipart form, to Next under the
 *   body guard.
 * @property {readonly string[]} [allow] the methods that may carry it (a POST only unless said); any
 *   other is answered 405 with this Allow. Without it, another method goes to Next.
 * @property {'multipart/form-data'} [mediaType] anything else is answered 415 unread
 * @property {number} [maxBytes] the most its declared Content-Length may be: 411 without one, 413 over
 * @property {'page' | 'json' | 'json-or-page' | 'text'} answers how it is answered when turned away
 *   here: a short page, JSON as the route answers, JSON when it asks for it (Accept) or else a page,
 *   or plain text
 */

/**
 * @typedef {object} PathRule
 * @property {string} name
 * @property {string} paths the paths, as a reader would write them
 * @property {(pathname: string) => boolean} matches a normalised pathname
 * @property {BodyRule} [body]
 * @property {Readonly<Record<string, string>>} [headers] set on every answer from these paths
 */

/** The page for insurers, whose "Your claims with us" form posts to itself. */
export const INSURERS_PAGE_PATH = '/insurers';

/** The signed links to an enquiry's photos, sent to the company's CRM (server/crm/photo-links.ts). */
const PHOTO_LINK_PREFIX = '/api/enquiry-photos/';

/** A signed link's token in the address: not kept, not indexed, never sent on as a referrer. */
const TOKEN_IN_ADDRESS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' };

/** @param {import('./upload-gate.mjs').UploadPath['name']} name */
const upload = (name) => {
  const path = UPLOAD_PATHS.find((door) => door.name === name)?.path ?? '';
  return { paths: path, matches: (/** @type {string} */ pathname) => uploadPathOf(pathname)?.name === name };
};

/** @type {readonly PathRule[]} */
export const PATH_RULES = Object.freeze([
  {
    name: 'retired-later-photos',
    paths: `${RETIRED_LATER_PHOTOS_PREFIX}…`,
    matches: (pathname) => pathname.startsWith(RETIRED_LATER_PHOTOS_PREFIX),
    body: { takes: 'gone', answers: 'json-or-page' },
  },
  {
    name: 'contact-api',
    ...upload('contact-api'),
    body: { takes: 'json-or-upload', maxBytes: LARGEST_BODY_BYTES, answers: 'json' },
  },
  {
    name: 'contact-page',
    ...upload('contact-page'),
    body: {
      takes: 'upload',
      allow: ['POST', ...PAGE_METHODS],
      mediaType: 'multipart/form-data',
      maxBytes: LARGEST_BODY_BYTES,
      answers: 'page',
    },
  },
  {
    name: 'later-photos',
    ...upload('later-photos'),
    body: { takes: 'upload', allow: ['POST'], mediaType: 'multipart/form-data', maxBytes: LARGEST_BODY_BYTES, answers: 'json-or-page' },
  },
  {
    name: 'claim-form',
    paths: '/track, /claims/<reference>, /claims/<reference>/update, /claims/<reference>/electricity.pdf',
    matches: isClaimFormPath,
    body: {
      takes: 'small-form',
      allow: ['POST', ...PAGE_METHODS],
      mediaType: 'multipart/form-data',
      maxBytes: CLAIM_FORM_MAX_BYTES,
      answers: 'text',
    },
  },
  {
    // "Your claims with us": one e-mail field posted to the page (a server action), with or without script.
    name: 'insurers-page',
    paths: INSURERS_PAGE_PATH,
    matches: (pathname) => pathname === INSURERS_PAGE_PATH,
    body: {
      takes: 'small-form',
      allow: ['POST', ...PAGE_METHODS],
      mediaType: 'multipart/form-data',
      maxBytes: CLAIM_FORM_MAX_BYTES,
      answers: 'text',
    },
  },
  {
    // The portfolio page's buttons (open a link, send a new one, sign out): server actions posted to the page, no fields of their own.
    name: 'portfolio-form',
    paths: PORTFOLIO_PATH,
    matches: (pathname) => pathname === PORTFOLIO_PATH,
    body: {
      takes: 'small-form',
      allow: ['POST', ...PAGE_METHODS],
      mediaType: 'multipart/form-data',
      maxBytes: CLAIM_FORM_MAX_BYTES,
      answers: 'text',
    },
  },
  {
    name: 'signed-link',
    paths: '/track/<token>, /claim-update/<token>',
    matches: isSignedLinkPath,
    headers: TOKEN_IN_ADDRESS,
  },
  {
    // The page a link opened, by reference (no token): not kept or indexed. `same-origin`: under
    // `no-referrer` a browser sends a page's own posts with `Origin: null`, which the cross-site checks
    // (server.mjs, Next's actions) refuse; the reference is no secret.
    name: 'claim-page',
    paths: '/claims/<reference>, /claims/<reference>/update',
    matches: isClaimPagePath,
    headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin', 'X-Robots-Tag': 'noindex, nofollow' },
  },
  {
    name: 'portfolio-link',
    paths: '/portfolio/open/<token>',
    matches: isPortfolioLinkPath,
    headers: TOKEN_IN_ADDRESS,
  },
  {
    // An instructing organisation's claims, by its cookie: per person, never kept or indexed. Its
    // filters are a GET form and its links go to this site's claim pages, so the origin is all it sends on.
    name: 'portfolio-page',
    paths: '/portfolio, /portfolio/claims.csv',
    matches: isPortfolioPagePath,
    headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin', 'X-Robots-Tag': 'noindex, nofollow' },
  },
  {
    // The token opens a customer's photo (server/crm/photo-links.ts); its own Cache-Control stands.
    name: 'photo-link',
    paths: `${PHOTO_LINK_PREFIX}<token>`,
    matches: (pathname) => pathname.startsWith(PHOTO_LINK_PREFIX),
    headers: { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' },
  },
]);

/**
 * The rule for a body posted to a normalised pathname, or undefined (a path not in the table).
 * @param {string} pathname
 * @returns {(PathRule & { body: BodyRule }) | undefined}
 */
export const bodyRuleOf = (pathname) =>
  /** @type {(PathRule & { body: BodyRule }) | undefined} */ (PATH_RULES.find((rule) => rule.body && rule.matches(pathname)));

/**
 * Whether a path of the table takes a body (a page's path, outside /api/, otherwise refuses one).
 * @param {string} pathname
 */
export const takesBody = (pathname) => bodyRuleOf(pathname) !== undefined;

/**
 * The headers the table puts on every answer from a pathname, in its order.
 * @param {string} pathname
 * @returns {Record<string, string>}
 */
export const pathHeaders = (pathname) =>
  Object.assign({}, ...PATH_RULES.filter((rule) => rule.headers && rule.matches(pathname)).map((rule) => rule.headers));

/**
 * The request target with each path segment whose percent-encoding does not decode (`%E0%A4%A`, `%FF`:
 * a broken escape or bytes that are not UTF-8) spelled with its `%` escaped, so Next reads that segment
 * as the literal text it is. Next cannot decode such a segment into a route's parameter and answered
 * 500; now `/claims/%FF` is a reference like any unknown one (404, the dead link's words) and
 * `/track/%FF` a token of the wrong shape (404). Every other target, query included, is left as it came.
 * @param {string | undefined} url
 * @returns {string | undefined}
 */
export function withDecodablePath(url) {
  if (url === undefined || !url.includes('%')) return url;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const decodable = path
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replaceAll('%', '%25');
      }
    })
    .join('/');
  return decodable === path ? url : decodable + (queryAt === -1 ? '' : url.slice(queryAt));
}
