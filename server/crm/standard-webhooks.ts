import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

// Standard Webhooks, symmetric scheme (https://www.standardwebhooks.com): HMAC-SHA256 over
// `${id}.${timestamp}.${body}`, sent as `webhook-signature: v1,<base64>` beside `webhook-id` and
// `webhook-timestamp` (integer seconds since the epoch).

export type WebhookMessage = { id: string; timestamp: number; body: string };

export type WebhookVerification =
  { ok: true; id: string; timestamp: number } | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'stale' | 'bad-signature' };

const MIN_KEY_BYTES = 16;
// Bounds on what a request can make us do before any signature is known to be good.
const MAX_ID_LENGTH = 256;
const MAX_SIGNATURE_HEADER_LENGTH = 2000;
const MAX_SIGNATURES = 10;
const TIMESTAMP = /^[0-9]{1,12}$/;

/** The HMAC key in a `whsec_<base64>` secret (plain base64 without the prefix is accepted too). */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (encoded === '') throw new Error('Webhook secret is empty: expected whsec_ followed by base64.');
  const key = Buffer.from(encoded, 'base64');
  // Node's decoder skips characters it does not know; only a round trip shows the text was base64.
  if (key.toString('base64') !== encoded) throw new Error('Webhook secret is not base64 (expected whsec_ followed by base64).');
  if (key.length < MIN_KEY_BYTES) throw new Error(`Webhook secret is too short: ${key.length} bytes, at least ${MIN_KEY_BYTES} needed.`);
  return key;
}

/** The `v1,<base64>` signature of a message. */
export function signWebhook(key: Buffer, message: WebhookMessage): string {
  if (!Number.isSafeInteger(message.timestamp)) throw new Error('Webhook timestamp must be whole seconds since the epoch.');
  const digest = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`, 'utf8').digest('base64');
  return `v1,${digest}`;
}

/** The headers for an outgoing POST whose body is `message.body`, exactly. */
export function webhookHeaders(
  key: Buffer,
  message: WebhookMessage,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': signWebhook(key, message),
  };
}

/**
 * Checks a received webhook. `body` must be the raw body as received (not re-serialised JSON).
 * An id longer than 256 characters counts as missing-headers: no sender makes one, and it is not hashed.
 * A signature header over 2,000 characters or with more than 10 entries is bad-signature, unread.
 */
export function verifyWebhook(
  key: Buffer,
  headers: { get(name: string): string | null },
  body: string,
  nowMs: number = Date.now(),
  toleranceSeconds: number = 300,
): WebhookVerification {
  const id = headers.get('webhook-id');
  const timestampText = headers.get('webhook-timestamp');
  const signatureHeader = headers.get('webhook-signature');
  if (!id || !timestampText || !signatureHeader || id.length > MAX_ID_LENGTH) return { ok: false, reason: 'missing-headers' };

  if (!TIMESTAMP.test(timestampText)) return { ok: false, reason: 'bad-timestamp' };
  const timestamp = Number(timestampText);
  if (Math.abs(Math.floor(nowMs / 1000) - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };

  if (signatureHeader.length > MAX_SIGNATURE_HEADER_LENGTH) return { ok: false, reason: 'bad-signature' };
  const entries = signatureHeader.split(' ').filter((entry) => entry !== '');
  if (entries.length > MAX_SIGNATURES) return { ok: false, reason: 'bad-signature' };

  const expected = Buffer.from(signWebhook(key, { id, timestamp, body }), 'utf8');
  let matched = false;
  for (const entry of entries) {
    if (!entry.startsWith('v1,')) continue; // other schemes (v1a is ed25519) are not ours to check
    const candidate = Buffer.from(entry, 'utf8');
    // Every v1 entry is compared, so the time taken does not tell which one matched.
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched ? { ok: true, id, timestamp } : { ok: false, reason: 'bad-signature' };
}
