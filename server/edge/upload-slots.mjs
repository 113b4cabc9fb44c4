// Enquiries with photos the server receives at once, shared fairly. Each upload holds a slot while its
// body arrives and is processed (up to 60 MB on disk or in memory). Half the slots take an upload at the
// minimum rate, however slow; the other half only uploads that keep up a faster rate, so a few clients
// trickling bodies cannot hold every slot: a phone with a usable signal still gets through. A client
// whose uploads keep ending cut off for slowness or abandoned mid-body waits its turn (429).
// Plain JavaScript (typed by JSDoc): server.mjs, which Next does not bundle, holds the process's one set
// and takes a slot for every enquiry with photos at its upload gate (server/edge/upload-gate.mjs).
import { MIN_UPLOAD_BYTES_PER_SECOND, UPLOAD_SLOTS } from '../../lib/enquiry-rules.mjs';

// The figures (how many slots, the fast rate, the strikes) are the enquiry's rules (lib/enquiry-rules.mjs).
export { UPLOAD_SLOTS };

/** @typedef {{ [K in keyof typeof UPLOAD_SLOTS]: number }} UploadSlotLimits */

/**
 * How an upload ended: received and answered (`completed`); refused for its content (`refused`, which
 * the refused-submission budget counts); cut off below the minimum rate or past its deadline (`slow`);
 * the client went away mid-body (`abandoned`). Only the last two are strikes, and only when the upload
 * held a slot at the minimum rate: in a fast slot, being cut off is not held against the client.
 * @typedef {'completed' | 'refused' | 'slow' | 'abandoned'} UploadOutcome
 */

/**
 * @typedef {object} UploadSlot
 * @property {() => number} minBytesPerSecond The rate the upload must keep up now: the minimum rate, or
 *   the fast rate while it holds a fast slot (it moves to a minimum-rate slot as soon as one is free).
 * @property {(outcome: UploadOutcome) => void} release Frees the slot (once; later calls do nothing).
 */

/**
 * @typedef {{ ok: true; slot: UploadSlot }
 *   | { ok: false; status: 503; reason: 'busy'; retryAfterSeconds: number }
 *   | { ok: false; status: 429; reason: 'in-progress' | 'strikes'; retryAfterSeconds: number }} SlotDecision
 */

/**
 * @param {{ limits?: UploadSlotLimits; minBytesPerSecond?: number; now?: () => number }} [options]
 */
export function createUploadSlots({ limits = UPLOAD_SLOTS, minBytesPerSecond = MIN_UPLOAD_BYTES_PER_SECOND, now = Date.now } = {}) {
  /** @typedef {{ key: string; fast: boolean; released: boolean }} Holder */
  /** @type {Holder[]} */
  const holders = [];
  /** @type {Map<string, number>} */
  const byClient = new Map();
  const strikes = createStrikes(limits, now);

  /** @param {Holder} holder @param {UploadOutcome} outcome */
  function release(holder, outcome) {
    if (holder.released) return;
    holder.released = true;
    holders.splice(holders.indexOf(holder), 1);
    const left = (byClient.get(holder.key) ?? 1) - 1;
    if (left > 0) byClient.set(holder.key, left);
    else byClient.delete(holder.key);
    if (!holder.fast && (outcome === 'slow' || outcome === 'abandoned') && !isLoopback(holder.key)) strikes.add(holder.key);
    // A minimum-rate slot came free: the upload waiting longest in a fast slot takes it.
    if (!holder.fast) {
      const promoted = holders.find((other) => other.fast);
      if (promoted) promoted.fast = false;
    }
  }

  return {
    /**
     * A slot for an upload from the client `key`, or why not: 429 while the client has an upload in
     * progress or too many strikes, 503 when every slot is held.
     * @param {string} key
     * @returns {SlotDecision}
     */
    acquire(key) {
      const recent = strikes.current(key);
      if (recent.length >= limits.strikesAllowed) {
        const oldest = recent[0] ?? now();
        return {
          ok: false,
          status: 429,
          reason: 'strikes',
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + limits.strikeWindowMs - now()) / 1000)),
        };
      }
      if ((byClient.get(key) ?? 0) >= limits.perClient)
        return { ok: false, status: 429, reason: 'in-progress', retryAfterSeconds: limits.retryAfterSeconds };
      if (holders.length >= limits.total) return { ok: false, status: 503, reason: 'busy', retryAfterSeconds: limits.retryAfterSeconds };
      const atMinimum = holders.filter((holder) => !holder.fast).length;
      /** @type {Holder} */
      const holder = { key, fast: atMinimum >= limits.atMinimumRate, released: false };
      holders.push(holder);
      byClient.set(key, (byClient.get(key) ?? 0) + 1);
      return {
        ok: true,
        slot: {
          minBytesPerSecond: () => (holder.fast ? limits.fastBytesPerSecond : minBytesPerSecond),
          release: (outcome) => release(holder, outcome),
        },
      };
    },
    /** Slots held now, in all and at the minimum rate; clients with strikes remembered. */
    state() {
      return {
        held: holders.length,
        atMinimumRate: holders.filter((holder) => !holder.fast).length,
        clientsWithStrikes: strikes.clients(),
      };
    },
  };
}

/** @typedef {ReturnType<typeof createUploadSlots>} UploadSlots */

/**
 * The strikes of each client (`limits.strikesAllowed` at most, each forgotten after
 * `limits.strikeWindowMs`), for the `limits.maxClients` clients struck most recently.
 * @param {UploadSlotLimits} limits
 * @param {() => number} now
 */
function createStrikes(limits, now) {
  /** @type {Map<string, number[]>} */
  const strikes = new Map();

  /** @param {string} key */
  function current(key) {
    const list = strikes.get(key);
    if (!list) return [];
    const fresh = list.filter((at) => now() - at < limits.strikeWindowMs);
    if (fresh.length === 0) strikes.delete(key);
    else if (fresh.length !== list.length) strikes.set(key, fresh);
    return fresh;
  }

  /** @param {string} key */
  function add(key) {
    const list = [...current(key), now()].slice(-limits.strikesAllowed);
    strikes.delete(key);
    strikes.set(key, list);
    while (strikes.size > limits.maxClients) {
      const oldest = strikes.keys().next().value;
      if (oldest === undefined) break;
      strikes.delete(oldest);
    }
  }

  return { current, add, clients: () => strikes.size };
}

/**
 * A client on this machine (a test, or a proxy in front that TRUST_PROXY does not declare, behind which
 * every visitor would share one address) is never made to wait for its strikes.
 * @param {string} key
 */
function isLoopback(key) {
  return key.startsWith('127.') || key === '0:0:0:0::/64';
}
