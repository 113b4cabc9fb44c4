import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, webhookHeaders, webhookKey, type WebhookMessage } from '@/server/crm/standard-webhooks';

// The published test vector of the reference libraries, repository standard-webhooks/standard-webhooks:
// libraries/javascript/src/webhook.test.ts ("sign function works"), the same in
// libraries/python/tests/test_webhooks.py (test_sign_function) and libraries/go/webhook_test.go (TestWebhookSign).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const VECTOR: WebhookMessage = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' };
const VECTOR_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const key = webhookKey(SECRET);
const atVectorTime = VECTOR.timestamp * 1000;

function headersFor(message: WebhookMessage, signature = signWebhook(key, message)): Headers {
  return new Headers({ 'webhook-id': message.id, 'webhook-timestamp': String(message.timestamp), 'webhook-signature': signature });
}

describe('the published Standard Webhooks example', () => {
  it('signs the example message to exactly the published signature', () => {
    expect(signWebhook(key, VECTOR)).toBe(VECTOR_SIGNATURE);
  });

  it('accepts the example message with the published signature', () => {
    expect(verifyWebhook(key, headersFor(VECTOR, VECTOR_SIGNATURE), VECTOR.body, atVectorTime)).toEqual({
      ok: true,
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
    });
  });

  it('gives the three headers of an outgoing POST', () => {
    expect(webhookHeaders(key, VECTOR)).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR_SIGNATURE,
    });
    expect(verifyWebhook(key, new Headers(webhookHeaders(key, VECTOR)), VECTOR.body, atVectorTime).ok).toBe(true);
  });
});

describe('verifying a received webhook', () => {
  it('refuses a signature made with another secret', () => {
    const otherKey = webhookKey(`whsec_${Buffer.alloc(24, 7).toString('base64')}`);
    expect(verifyWebhook(otherKey, headersFor(VECTOR), VECTOR.body, atVectorTime)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a body changed after signing, even by one space', () => {
    expect(verifyWebhook(key, headersFor(VECTOR), '{"test":2432232314}', atVectorTime)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a timestamp more than 300 seconds old or ahead as stale, and accepts one 299 seconds away', () => {
    for (const offset of [301, -301])
      expect(verifyWebhook(key, headersFor(VECTOR), VECTOR.body, atVectorTime + offset * 1000), String(offset)).toEqual({
        ok: false,
        reason: 'stale',
      });
    for (const offset of [299, -299])
      expect(verifyWebhook(key, headersFor(VECTOR), VECTOR.body, atVectorTime + offset * 1000).ok).toBe(true);
  });

  it('reports missing headers when any of the three is absent or empty', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers = headersFor(VECTOR);
      headers.delete(name);
      expect(verifyWebhook(key, headers, VECTOR.body, atVectorTime), name).toEqual({ ok: false, reason: 'missing-headers' });
      headers.set(name, '');
      expect(verifyWebhook(key, headers, VECTOR.body, atVectorTime), name).toEqual({ ok: false, reason: 'missing-headers' });
    }
  });

  it('treats an id longer than 256 characters as missing', () => {
    const message = { ...VECTOR, id: 'm'.repeat(257) };
    expect(verifyWebhook(key, headersFor(message), VECTOR.body, atVectorTime)).toEqual({ ok: false, reason: 'missing-headers' });
    expect(verifyWebhook(key, headersFor({ ...VECTOR, id: 'm'.repeat(256) }), VECTOR.body, atVectorTime).ok).toBe(true);
  });

  it('refuses a timestamp that is not a plain integer', () => {
    for (const timestamp of ['hello', '1614265330.5', '-1614265330', '1.6e9', ' 1614265330x', '0x603847f2']) {
      const headers = headersFor(VECTOR);
      headers.set('webhook-timestamp', timestamp);
      expect(verifyWebhook(key, headers, VECTOR.body, atVectorTime), timestamp).toEqual({ ok: false, reason: 'bad-timestamp' });
    }
  });

  it('accepts a header of several signatures when one of them matches', () => {
    const otherKey = webhookKey(`whsec_${Buffer.alloc(24, 7).toString('base64')}`);
    const header = [signWebhook(otherKey, VECTOR), 'v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFym', VECTOR_SIGNATURE].join(
      ' ',
    );
    expect(verifyWebhook(key, headersFor(VECTOR, header), VECTOR.body, atVectorTime).ok).toBe(true);
  });

  it('ignores signatures of other versions: a v1a entry alone is a bad signature', () => {
    const asV1a = VECTOR_SIGNATURE.replace('v1,', 'v1a,');
    expect(verifyWebhook(key, headersFor(VECTOR, asV1a), VECTOR.body, atVectorTime)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(verifyWebhook(key, headersFor(VECTOR, 'v1,'), VECTOR.body, atVectorTime)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('does not read a signature header over 2,000 characters or with more than 10 entries', () => {
    const padded = `${VECTOR_SIGNATURE} v2,${'x'.repeat(2000)}`;
    expect(verifyWebhook(key, headersFor(VECTOR, padded), VECTOR.body, atVectorTime)).toEqual({ ok: false, reason: 'bad-signature' });
    const eleven = [...Array<string>(10).fill('v1,AAAA'), VECTOR_SIGNATURE].join(' ');
    expect(verifyWebhook(key, headersFor(VECTOR, eleven), VECTOR.body, atVectorTime)).toEqual({ ok: false, reason: 'bad-signature' });
    const ten = [...Array<string>(9).fill('v1,AAAA'), VECTOR_SIGNATURE].join(' ');
    expect(verifyWebhook(key, headersFor(VECTOR, ten), VECTOR.body, atVectorTime).ok).toBe(true);
  });
});

describe('reading the webhook secret', () => {
  it('accepts the published secret, with or without the whsec_ prefix', () => {
    expect(webhookKey(SECRET)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
    expect(webhookKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toEqual(webhookKey(SECRET));
  });

  it('refuses an empty secret, one that is not base64, and one shorter than 16 bytes, saying which', () => {
    expect(() => webhookKey('')).toThrow(/empty/);
    expect(() => webhookKey('whsec_')).toThrow(/empty/);
    expect(() => webhookKey('whsec_not base64!!')).toThrow(/not base64/);
    expect(() => webhookKey(`whsec_${Buffer.alloc(15, 1).toString('base64')}`)).toThrow(/too short: 15 bytes/);
    expect(webhookKey(`whsec_${Buffer.alloc(16, 1).toString('base64')}`)).toHaveLength(16);
  });
});
