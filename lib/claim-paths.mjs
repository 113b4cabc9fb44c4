// Where a claim's pages are, for the browser and the server alike (plain JavaScript, so server.mjs
// reads it with no compile step): the look-up, and the prefixes of its two signed links.
export const TRACK_PATH = '/track';
export const STATUS_LINK_PREFIX = '/track/';
export const STAFF_LINK_PREFIX = '/claim-update/';
/**
 * The pages a signed link opens once its token has been traded for a cookie (server/claims/link-exchange.ts):
 * named by the claim's reference, which is not secret, so no token stays in the address bar, the
 * history, a Referer or an access log. The staff page posts its Save to itself.
 */
export const CLAIM_PAGE_PREFIX = '/claims/';
/** @param {string} reference */
export const claimStatusPath = (reference) => `${CLAIM_PAGE_PREFIX}${reference}`;
/** @param {string} reference */
export const staffPagePath = (reference) => `${CLAIM_PAGE_PREFIX}${reference}/update`;
/**
 * Where a claim's "Add photos" form posts (scripted or not), under its status page, so the status
 * page's cookie goes along and opens the claim: no token in the page or the post's address. `*` stands
 * for the one path segment of the reference (server/edge/upload-gate.mjs, and the proxies' files in deploy/).
 */
export const LATER_PHOTOS_PATTERN = `${CLAIM_PAGE_PREFIX}*/photos`;
/** @param {string} reference */
export const laterPhotosPath = (reference) => `${CLAIM_PAGE_PREFIX}${reference}/photos`;
/**
 * Where the form posted photos before, the status token in the address. Nothing links there any more;
 * a page left open from before posts there once, and server.mjs answers it (410) without reading it.
 */
export const RETIRED_LATER_PHOTOS_PREFIX = '/api/claims/photos/';

/** Where a drying document's verification page is: `/verify/<number>.<signature>`, printed on the document. */
export const VERIFY_PREFIX = '/verify/';

/**
 * Every path whose next segment is a secret token: a claim's two links, a document's verification, an
 * organisation's person's link (PORTFOLIO_LINK_PREFIX), the retired photo address. One list: the site's
 * redaction below, the visit attribution and the reverse proxies' access logs (whose test checks their
 * patterns against it) cut the segment after each. The portfolio's is written out, not imported, to keep
 * every page's script small (lib/claim-paths.test.ts holds it to PORTFOLIO_LINK_PREFIX); none has a
 * character a pattern would read as anything but itself.
 */
export const TOKEN_PATH_PREFIXES = [STATUS_LINK_PREFIX, STAFF_LINK_PREFIX, VERIFY_PREFIX, '/portfolio/open/', RETIRED_LATER_PHOTOS_PREFIX];

/** `/track/<token>` and the rest, any letter case, to the end of the segment: the token cut, the prefix kept. */
const TOKEN_SEGMENT = new RegExp(`(${TOKEN_PATH_PREFIXES.join('|')})[^/?#\\s"'<>\\\\]+`, 'gi');

/**
 * A token wherever it stands in a text: a claim link's (the enquiry's id, server/claims/claim-links.ts)
 * or a document's verification (its number, lib/document-numbers.ts), a dot and 32 base64url
 * characters, not part of a longer run of such characters.
 */
const LINK_TOKEN = /(?<![\w.-])(?:[1-9]\d{0,11}|HC(?:-[2-9A-HJKMNP-Z]{3}){2}-[EC][1-9]\d{0,14})\.[\w-]{32}(?![\w-])/g;

/**
 * The text with every secret token cut out (`/track/<token>` becomes `/track/`, `/verify/<token>`
 * `/verify/`, and so on for every prefix above, and a claim link's or a document's token standing
 * alone), for what is kept or sent elsewhere about a request: the error log, the visit attribution.
 * @param {string} text
 */
export const withoutLinkTokens = (text) => text.replace(TOKEN_SEGMENT, '$1').replace(LINK_TOKEN, '');
