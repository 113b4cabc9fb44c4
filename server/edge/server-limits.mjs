// Time-outs and limits of the production server (server.mjs), in one place, sized for a small public
// site on one small machine: a client that stalls cannot hold a socket and its memory for long, and a
// phone that keeps sending at a poor mobile rate is never cut off.
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.

import { MIN_UPLOAD_BYTES_PER_SECOND, RATE_WINDOW_MS, UPLOAD_CEILING_MS, UPLOAD_GRACE_MS } from '../../lib/enquiry-rules.mjs';

// The slowest upload the site waits for (16 KB/s over every 5 s window) and the largest body it takes
// (LARGEST_BODY_BYTES) are the enquiry's rules, in lib/enquiry-rules.mjs; the limits below follow them.

/** @typedef {{ [K in keyof typeof SERVER_LIMITS]: number }} ServerLimits */
export const SERVER_LIMITS = Object.freeze({
  /** A client has 10 s to send its request headers (Node's default is 60 s). */
  headersTimeoutMs: 10_000,
  /**
   * A body must arrive within 30 s plus the time its declared length (Content-Length) needs at the
   * minimum rate: 30 s for a JSON enquiry, 5 min for 4.4 MB, 63 min for the largest. A body without a
   * declared length (chunked) has the 30 s.
   */
  bodyGraceMs: UPLOAD_GRACE_MS,
  minBodyBytesPerSecond: MIN_UPLOAD_BYTES_PER_SECOND,
  rateWindowMs: RATE_WINDOW_MS,
  /** ... and never more than 65 min, which the largest body at the minimum rate fits in (30 s + 3,756 s). */
  bodyCeilingMs: UPLOAD_CEILING_MS,
  /** Once the answer is sent, a body still arriving has 5 s to finish before the connection is closed. */
  lingerMs: 5_000,
  /**
   * Node's own limit for a whole request, which is per server: a backstop behind the per-request
   * deadline above, set past its ceiling so it never cuts off an upload that keeps moving.
   */
  requestTimeoutMs: 66 * 60_000,
  /** How often Node checks its two time-outs (default 30 s, which would let them overrun). */
  connectionsCheckingIntervalMs: 2_000,
  /** An idle keep-alive connection is closed after 5 s (the page's own requests come sooner). */
  keepAliveTimeoutMs: 5_000,
  /** A socket with no traffic at all for 60 s is closed (responses stream faster than that). */
  socketIdleTimeoutMs: 60_000,
  /** Connections open at once; beyond it new ones are closed at once (file handles are finite). */
  maxConnections: 512,
  /** Request headers, as Node counts them (default 2000) and in bytes (Node's default 16 KiB). */
  maxHeadersCount: 100,
  maxHeaderSize: 16 * 1024,
  /** Requests one keep-alive connection may make before it is closed. */
  maxRequestsPerSocket: 1000,
});

/** How long a SIGTERM may take: in-flight requests and the notification being sent finish within it. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Options for http.createServer (some limits can only be set there).
 * @param {ServerLimits} [limits]
 * @returns {import('node:http').ServerOptions}
 */
export function serverOptions(limits = SERVER_LIMITS) {
  return {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    maxHeaderSize: limits.maxHeaderSize,
  };
}

/**
 * The limits that are set on a created server.
 * @template {import('node:http').Server} T
 * @param {T} server
 * @param {ServerLimits} [limits]
 * @returns {T}
 */
export function applyServerLimits(server, limits = SERVER_LIMITS) {
  server.maxConnections = limits.maxConnections;
  server.maxHeadersCount = limits.maxHeadersCount;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.setTimeout(limits.socketIdleTimeoutMs);
  return server;
}

/**
 * A Content-Length header as a number of bytes; undefined when absent or not a plain decimal number.
 * @param {string | string[] | undefined} header
 * @returns {number | undefined}
 */
export function declaredLength(header) {
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/**
 * How long a body of `declared` bytes may take to arrive (undefined: not declared).
 * @param {number | undefined} declared
 * @param {ServerLimits} [limits]
 */
export function bodyDeadlineMs(declared, limits = SERVER_LIMITS) {
  if (declared === undefined) return limits.bodyGraceMs;
  return Math.min(limits.bodyCeilingMs, limits.bodyGraceMs + Math.ceil((declared * 1000) / limits.minBodyBytesPerSecond));
}

/**
 * How a request's body ended: it arrived (`complete`); the client went away first (`aborted`); cut off
 * for arriving below the minimum rate (`slow`) or past its deadline (`deadline`); or still arriving
 * `lingerMs` after the answer went out (`linger`: the site answered without reading it).
 * @typedef {'complete' | 'aborted' | 'slow' | 'deadline' | 'linger'} BodyOutcome
 */

/**
 * @typedef {object} BodyGuardOptions
 * @property {ServerLimits} [limits]
 * @property {() => number} [minBytesPerSecond] The rate every window after the first must bring (read
 *   at each window, so it can change while the body arrives); without it only the deadline applies.
 * @property {(reason: 'slow' | 'deadline', response: import('node:http').ServerResponse) => void} [refuse]
 *   Writes the answer to a body cut off before any answer was sent (default: 408 in plain text).
 * @property {(outcome: BodyOutcome) => void} [onEnd] Called once, when the body has ended one way or another.
 */

/**
 * Bounds the time a request's body may take: its deadline from the declared length (bodyDeadlineMs)
 * and, when asked, the windowed minimum rate. Cut off before an answer: 408 and the connection closed.
 * Counts the bytes the socket received, so it never buffers or consumes the body itself; a window in
 * which the server itself was not reading (its buffer full) is not held against the client.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {BodyGuardOptions} [options]
 */
export function guardRequestBody(request, response, options = {}) {
  const limits = options.limits ?? SERVER_LIMITS;
  const declared = declaredLength(request.headers['content-length']);
  const chunked = request.headers['transfer-encoding'] !== undefined;
  let ended = false;
  /** @param {BodyOutcome} outcome */
  const end = (outcome) => {
    if (ended) return;
    ended = true;
    clearTimeout(deadline);
    clearInterval(rateCheck);
    options.onEnd?.(outcome);
  };
  if (request.complete || (!chunked && !declared)) {
    ended = true;
    options.onEnd?.('complete');
    return;
  }

  const socket = request.socket;
  /** @param {'slow' | 'deadline' | 'linger'} reason */
  const cutOff = (reason) => {
    if (ended) return;
    // A body that arrived whole though nobody read it (an answer sent first): nothing to cut, and the
    // socket may already carry the next request of a keep-alive connection (a proxy's), not to be killed.
    if (request.complete) return end('complete');
    end(reason);
    if (reason === 'linger' || response.headersSent) {
      socket.destroy();
      return;
    }
    (options.refuse ?? refuseTooSlow)(reason, response);
    // The answer carries Connection: close; a client that keeps the socket open is closed after lingerMs.
    setTimeout(() => socket.destroy(), limits.lingerMs).unref();
  };

  let deadline = setTimeout(() => cutOff('deadline'), bodyDeadlineMs(declared, limits));
  deadline.unref();
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let rateCheck;
  if (options.minBytesPerSecond) {
    const minRate = options.minBytesPerSecond;
    const started = socket.bytesRead;
    let windowStart = started;
    let graceOver = false;
    rateCheck = setInterval(() => {
      const now = socket.bytesRead;
      const needed = (minRate() * limits.rateWindowMs) / 1000;
      const left = declared === undefined ? needed : declared - (now - started);
      const serverBehind = request.readableLength >= request.readableHighWaterMark;
      if (graceOver && !serverBehind && now - windowStart < Math.min(needed, Math.max(1, left))) cutOff('slow');
      graceOver = true;
      windowStart = now;
    }, limits.rateWindowMs);
    rateCheck.unref();
  }

  request.once('end', () => end('complete'));
  request.once('close', () => end(request.complete ? 'complete' : 'aborted'));
  response.once('finish', () => {
    if (ended) return;
    clearTimeout(deadline);
    deadline = setTimeout(() => cutOff('linger'), limits.lingerMs);
    deadline.unref();
  });
}

/**
 * @param {'slow' | 'deadline'} _reason
 * @param {import('node:http').ServerResponse} response
 */
function refuseTooSlow(_reason, response) {
  response.writeHead(408, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  response.end('Request Timeout: the body arrived too slowly.\n');
}

/** The methods a page, an asset or an image answers; anything else outside /api/ is refused unread. */
export const PAGE_METHODS = /** @type {readonly string[]} */ (Object.freeze(['GET', 'HEAD']));

/**
 * A request target's path as the WHATWG URL parser resolves it, as Next does: dot segments and their
 * percent-encoded spellings resolved, backslashes read as slashes. Undefined for a target that is not a
 * path (absolute-form, `*`).
 * @param {string | undefined} url
 * @returns {string | undefined}
 */
export function normalisedPathname(url) {
  const raw = url ?? '/';
  if (!raw.startsWith('/') && !raw.startsWith('\\')) return undefined;
  try {
    // Prefixed rather than resolved against a base, so `//host/path` stays a path.
    return new URL(`http://site${raw}`).pathname;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request target has a dot segment (`.` or `..`) in any spelling: plain, percent-encoded
 * (`%2e%2e`), encoded twice or more (`%252e%252e`), or behind an encoded or back slash.
 * @param {string | undefined} url
 */
export function hasDotSegment(url) {
  let path = (url ?? '/').split('?')[0] ?? '/';
  for (let round = 0; round < 4; round += 1) {
    if (path.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) return true;
    let decoded;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = path.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\').replace(/%25/g, '%');
    }
    if (decoded === path) return false;
    path = decoded;
  }
  return true;
}

/**
 * What a request that may carry a body is told before a byte of it is read: `bad-path` (400) when its
 * target has a dot segment or is not a path, `method` (405) when its normalised path is neither under
 * /api/ nor `bodyPaths`, otherwise undefined (it goes on). GET and HEAD always go on. The path is the
 * normalised one: otherwise `POST /api/../gallery` would reach the page, and Next's proxy would buffer
 * its body before the page said no.
 * @param {string | undefined} method
 * @param {string | undefined} url
 * @param {readonly (string | ((pathname: string) => boolean))[]} [bodyPaths] Page paths that take a body
 *   too: exact normalised paths, or tests of the normalised path.
 * @returns {'bad-path' | 'method' | undefined}
 */
export function bodyRequestRefusal(method, url, bodyPaths = []) {
  if (PAGE_METHODS.includes(method ?? 'GET')) return undefined;
  const pathname = normalisedPathname(url);
  if (pathname === undefined || hasDotSegment(url)) return 'bad-path';
  if (pathname.startsWith('/api/')) return undefined;
  if (bodyPaths.some((taken) => (typeof taken === 'string' ? taken === pathname : taken(pathname)))) return undefined;
  return 'method';
}
