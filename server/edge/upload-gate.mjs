// The upload gate every upload of photos comes in by: the scripted form's multipart POST /api/contact, the
// form posted without script (POST /contact) and photos added later (POST /claims/<reference>/photos,
// scripted or not). Each body takes an upload slot from the process's one set
// (server/edge/upload-slots.mjs), held until its response is sent, and must keep up that slot's
// minimum transfer rate while it arrives. It lives in server.mjs, which sees the socket before Next
// reads a byte: Next parses a server action's whole body before the page's code runs, so the slot
// could not be taken later for the form posted without script. The paths that take an upload are
// UPLOAD_PATHS below, one list: server.mjs checks a body by it (a row each in server/edge/path-rules.mjs), and deploy/proxy-limits.test.ts holds
// the reverse proxies' files to it (each path gets the largest body there too).
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { LATER_PHOTOS_PATTERN } from '../../lib/claim-paths.mjs';
import { CONTACT_PAGE_PATH } from './contact-page-post.mjs';
import { CLIENT_ADDRESS_HEADER, rateLimitKey } from './client-address.mjs';
import { guardRequestBody } from './server-limits.mjs';

/**
 * A path whose POST may carry photos, up to LARGEST_BODY_BYTES (lib/enquiry-rules.mjs). `exact`: that
 * path (with any query string); `segment`: the path with its one `*` standing for a single path
 * segment of one or more characters (a claim's reference), and nothing before or after.
 * @typedef {{ name: 'contact-api' | 'contact-page' | 'later-photos'; path: string; match: 'exact' | 'segment' }} UploadPath
 */

/**
 * Every upload path: the contact form's API (sent by its script), the contact page (the form posted
 * without script) and the photos added later from a claim's status page (scripted or not).
 * @type {readonly UploadPath[]}
 */
export const UPLOAD_PATHS = Object.freeze([
  { name: 'contact-api', path: '/api/contact', match: 'exact' },
  { name: 'contact-page', path: CONTACT_PAGE_PATH, match: 'exact' },
  { name: 'later-photos', path: LATER_PHOTOS_PATTERN, match: 'segment' },
]);

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The regular expression (its text) an upload path matches a whole pathname by: nginx's location for
 * a `segment` path is written with the same one (deploy/proxy-limits.test.ts).
 * @param {UploadPath} upload
 */
export const uploadPathRegExp = ({ path, match }) =>
  `^${match === 'exact' ? escapeRegExp(path) : path.split('*').map(escapeRegExp).join('[^/]+')}$`;

const UPLOAD_PATTERNS = UPLOAD_PATHS.map((upload) => ({ upload, pattern: new RegExp(uploadPathRegExp(upload)) }));

/**
 * The upload path a request's (normalised) pathname is on, or undefined.
 * @param {string} pathname
 * @returns {UploadPath | undefined}
 */
export function uploadPathOf(pathname) {
  return UPLOAD_PATTERNS.find(({ pattern }) => pattern.test(pathname))?.upload;
}

/**
 * Why a body was turned away at the upload gate: every slot held (`busy`, 503), the client's last upload still
 * arriving (`in-progress`, 429), the client's uploads kept ending slow or abandoned (`strikes`, 429),
 * or this body arrived below its slot's minimum rate (`too-slow`, 408).
 * @typedef {'busy' | 'in-progress' | 'strikes' | 'too-slow'} GateRefusal
 */

/**
 * @typedef {object} UploadGate
 * @property {import('./upload-slots.mjs').UploadSlots} slots
 * @property {(response: import('node:http').ServerResponse, refusal: GateRefusal, status: number, headers: Record<string, string>) => void} refuse
 *   Writes the response to a body turned away (a page or JSON, as the path expects); nothing of it was read.
 * @property {import('./server-limits.mjs').ServerLimits} [limits]
 */

/**
 * Lets an upload in, or responds to it here. Returns true when it has responded (the request goes no further).
 * The slot is freed once the response is sent or the connection is gone: a body cut off for slowness, or
 * left unfinished by a client that went away, is a strike against the client (upload-slots.mjs).
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {UploadGate} gate
 * @returns {boolean}
 */
export function admitUpload(request, response, { slots, refuse, limits }) {
  const granted = slots.acquire(rateLimitKey(String(request.headers[CLIENT_ADDRESS_HEADER])));
  if (!granted.ok) {
    refuse(response, granted.reason, granted.status, { 'Retry-After': String(granted.retryAfterSeconds) });
    return true;
  }
  /** @type {import('./server-limits.mjs').BodyOutcome | undefined} */
  let body;
  guardRequestBody(request, response, {
    limits,
    minBytesPerSecond: granted.slot.minBytesPerSecond,
    refuse: (_reason, refused) => refuse(refused, 'too-slow', 408, {}),
    onEnd: (outcome) => {
      body = outcome;
    },
  });
  response.once('close', () => {
    const ended = body ?? (request.complete ? 'complete' : undefined);
    if (ended === 'complete') granted.slot.release('completed');
    else if (ended === 'slow' || ended === 'deadline') granted.slot.release('slow');
    else if (ended === 'linger' || response.writableFinished) granted.slot.release('refused');
    else granted.slot.release('abandoned');
  });
  return false;
}
