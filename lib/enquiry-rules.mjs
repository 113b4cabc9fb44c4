// Every number of an enquiry, written once: how long its fields may be, how many photos of what size it
// may carry, how large its text and its whole body may be, and how fast and how many at once its uploads
// must arrive. The form, its schema, the server (server.mjs too), next.config.ts, the benchmarks and the
// tests read them from here; the words that quote them are in content/contact.ts, and what an operator
// sets (CONTACT_RATE_LIMIT, CONTACT_RATE_WINDOW) in server/base/config.mjs. The reverse proxies' files
// (deploy/nginx-site.conf, deploy/Caddyfile) cannot import it: deploy/proxy-limits.test.ts holds them
// to LARGEST_BODY_BYTES. Plain JavaScript (typed by JSDoc) so server.mjs runs it with no compile step.

// Text

/** The fewest characters of a field, trimmed: the site's rule. */
export const CONTACT_MIN = Object.freeze({ name: 2, subject: 5, message: 10 });

/** The most characters of a field, once normalised: our own. */
export const CONTACT_MAX = Object.freeze({ name: 100, email: 254, phone: 40, subject: 200, message: 5000 });

/** The most characters of each optional claim detail. */
export const CLAIM_MAX = Object.freeze({
  insurer: 100,
  claimReference: 60,
  postcode: 10,
  policyholderName: 100,
  policyholderPhone: 40,
  propertyAddress: 300,
  excess: 20,
  supportNeeds: 500,
});

/** The text of one enquiry as sent (the JSON body, or the text fields of a multipart one together). */
export const ENQUIRY_TEXT_MAX_BYTES = 32 * 1024;

// Photos

export const PHOTO_MAX_COUNT = 6;
/** 10 MB, in decimal units as phones and the form show sizes. */
export const PHOTO_MAX_BYTES = 10_000_000;
/** The most photos one claim may hold, those sent with the enquiry and those added later from its status page together. */
export const CLAIM_PHOTOS_MAX = 5 * PHOTO_MAX_COUNT;
/** Longest side of a stored photo, in pixels (the browser redraws a photo to it before sending it too). */
export const PHOTO_MAX_SIDE = 2048;
/** The most text fields a multipart enquiry may have, with room to spare over the form's own. */
export const MULTIPART_MAX_FIELDS = 40;
/** What the multipart framing may add: each part's boundary and headers. */
export const MULTIPART_FRAMING_BYTES = 64 * 1024;

/**
 * The largest request body the site takes: an enquiry with every photo at its cap, its text and the
 * multipart framing (60,098,304 bytes). The route handler (server/intake/multipart-enquiry.ts) and
 * server.mjs (server/edge/contact-page-post.mjs) refuse a larger one, and next.config.ts gives the form
 * posted without JavaScript exactly this much; the proxies in deploy/ take it rounded up to whole MiB.
 */
export const LARGEST_BODY_BYTES = PHOTO_MAX_COUNT * PHOTO_MAX_BYTES + ENQUIRY_TEXT_MAX_BYTES + MULTIPART_FRAMING_BYTES;

/**
 * Photos sent one request each ahead of their claim (a claim the phone kept with no signal, sent by the
 * service worker so no single request on a weak signal carries them all): kept this long waiting for
 * the claim, at most this many bytes of them at once on the server, at most one claim's worth of them
 * from one client at once (so no client can fill the space: past either, the phone sends its claim
 * whole), and at most this many per client an hour (the most a claim may hold, twice over for the tries
 * of a weak signal).
 */
export const STAGED_PHOTOS = Object.freeze({
  lifetimeMs: 24 * 60 * 60_000,
  maxBytes: 300_000_000,
  perClientBytes: PHOTO_MAX_COUNT * PHOTO_MAX_BYTES,
  perClientPerHour: 2 * CLAIM_PHOTOS_MAX,
});

// Budgets

/**
 * Refused submissions (not JSON, too large, malformed, invalid) per client: generous, so a person
 * correcting typos is never blocked, but a script cannot make the server parse and validate without
 * limit. Accepted submissions and reCAPTCHA assessments draw on CONTACT_RATE_LIMIT, an operator's
 * setting (server/base/config.mjs).
 */
export const REFUSED_SUBMISSION_LIMIT = Object.freeze({ limit: 30, windowMs: 10 * 60_000 });

// Uploads

/**
 * The slowest upload the site waits for: after a first window of grace, every RATE_WINDOW_MS must bring
 * MIN_UPLOAD_BYTES_PER_SECOND on average. 16 KB/s (128 kbit/s) is below a poor mobile uplink; a body
 * trickled a byte at a time is cut off after 10 s. server/edge/server-limits.mjs gives every body its
 * deadline from the same rate.
 */
export const MIN_UPLOAD_BYTES_PER_SECOND = 16_000;
export const RATE_WINDOW_MS = 5_000;

/** A body's first window of grace, before the minimum rate counts, and the longest any body may take. */
export const UPLOAD_GRACE_MS = 30_000;
/** The largest body at the minimum rate fits in it (30 s + 3,756 s). */
export const UPLOAD_CEILING_MS = 65 * 60_000;

/**
 * How long a body of `bytes` may take to arrive: the grace and its bytes at the minimum rate, never
 * more than the ceiling. The server cuts off a body past it; the service worker waits as long.
 * @param {number} bytes
 */
export function uploadDeadlineMs(bytes) {
  return Math.min(UPLOAD_CEILING_MS, UPLOAD_GRACE_MS + Math.ceil((bytes * 1000) / MIN_UPLOAD_BYTES_PER_SECOND));
}

/**
 * Enquiries with photos the server receives at once, shared fairly (server/edge/upload-slots.mjs).
 * Each upload holds a slot while its body arrives and is processed (up to LARGEST_BODY_BYTES on disk or
 * in memory).
 */
export const UPLOAD_SLOTS = Object.freeze({
  /** Uploads received and processed at once, in this process. */
  total: 6,
  /** Of which this many take an upload at the minimum rate (16 KB/s); the rest need fastBytesPerSecond. */
  atMinimumRate: 3,
  /** 64 KB/s (512 kbit/s): what a phone with a usable signal sends. */
  fastBytesPerSecond: 64_000,
  /** Uploads one client (an address, or an IPv6 /64) sends at once. */
  perClient: 1,
  /** Slow or abandoned uploads a client may have in strikeWindowMs before it waits (429) ... */
  strikesAllowed: 3,
  /** ... until its oldest one is an hour old. */
  strikeWindowMs: 60 * 60_000,
  /** What a client refused for want of a slot, or with an upload still in progress, is told to wait. */
  retryAfterSeconds: 30,
  /** Clients whose strikes are remembered; beyond it the oldest records are dropped. */
  maxClients: 50_000,
});
