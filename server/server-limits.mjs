// Time-outs and limits of the production server (server.mjs), in one place, sized for a small public
// site on one small machine: a slow or idle client cannot hold a socket and its memory for minutes.
// Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.

/** @typedef {{ [K in keyof typeof SERVER_LIMITS]: number }} ServerLimits */
export const SERVER_LIMITS = Object.freeze({
  /** A client has 10 s to send its request headers (Node's default is 60 s). */
  headersTimeoutMs: 10_000,
  /** ... and 30 s for the whole request, body included (Node's default is 300 s). */
  requestTimeoutMs: 30_000,
  /** How often Node checks the two time-outs above (default 30 s, which would let them overrun). */
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

/** The methods a page, an asset or an image answers; anything else outside /api/ is refused unread. */
export const PAGE_METHODS = /** @type {readonly string[]} */ (Object.freeze(['GET', 'HEAD']));

/**
 * Whether a request is refused with 405 before its body is read: only the API's route handlers take a
 * body. (Otherwise Next's proxy buffers a POST /gallery's body, up to 10 MB, before a page says no.)
 * @param {string | undefined} method
 * @param {string | undefined} url
 */
export function isMethodNotAllowed(method, url) {
  const pathname = (url ?? '/').split('?')[0] ?? '/';
  return !PAGE_METHODS.includes(method ?? 'GET') && !pathname.startsWith('/api/');
}
