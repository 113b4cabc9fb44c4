// The door every enquiry with photos comes in by: the scripted form's multipart POST /api/contact and
// the form posted without script (POST /contact). Each body takes an upload slot from the process's
// one set (server/enquiries/upload-slots.mjs), held until its answer is sent, and must keep up that
// slot's minimum transfer rate while it arrives. It lives in server.mjs, which sees the socket before
// Next reads a byte: Next parses a server action's whole body before the page's code runs, so the
// slot could not be taken later for the form posted without script.
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.
import { CLIENT_ADDRESS_HEADER, rateLimitKey } from './proxy-client-address.mjs';
import { guardRequestBody } from './server-limits.mjs';

/**
 * Why a body was turned away at the door: every slot held (`busy`, 503), the client's last upload still
 * arriving (`in-progress`, 429), the client's uploads kept ending slow or abandoned (`strikes`, 429),
 * or this body arrived below its slot's minimum rate (`too-slow`, 408).
 * @typedef {'busy' | 'in-progress' | 'strikes' | 'too-slow'} DoorRefusal
 */

/**
 * @typedef {object} UploadDoor
 * @property {import('./enquiries/upload-slots.mjs').UploadSlots} slots
 * @property {(response: import('node:http').ServerResponse, refusal: DoorRefusal, status: number, headers: Record<string, string>) => void} refuse
 *   Writes the answer to a body turned away (a page or JSON, as the path expects); nothing of it was read.
 * @property {import('./server-limits.mjs').ServerLimits} [limits]
 */

/**
 * Lets an upload in, or answers it here. Returns true when answered (the request goes no further).
 * The slot is freed once the answer is sent or the connection is gone: a body cut off for slowness, or
 * left unfinished by a client that went away, is a strike against the client (upload-slots.mjs).
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {UploadDoor} door
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
