import { KEPT_CLAIM_MAX_AGE_MS } from '@/lib/offline/protocol';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { enquiryReference } from '@/lib/enquiry-reference';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { createContactHandler } from '@/server/intake/contact-handler';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { contactRequest, tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';
import { outboxMessages } from '@/tests/support/outbox';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '0141 496 0000', subject: 'Roof leak', message: 'Water is coming in.' };

let db: Client;
let cleanup: () => void;
let woken = 0;

beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  woken = 0;
});
afterEach(() => cleanup());

function handler(env: Record<string, string> = {}) {
  return createContactHandler({ config: loadEnquiryConfig(env), db: async () => db, wake: () => (woken += 1) });
}

const count = async (sql: string) => Number((await db.execute(sql)).rows[0]?.n);

describe('POST /api/contact', () => {
  it('stores a valid enquiry with its reference, notification and acknowledgement jobs and answers 201', async () => {
    const result = await handler()(contactRequest({ ...valid, name: '  Jo\u0000 Bloggs ', message: 'Water is\r\ncoming in.\u0007' }));
    expect(result).toEqual({
      status: 201,
      body: { success: true, message: 'Your message has been sent successfully!', reference: enquiryReference(1) },
    });
    const row = (await db.execute('SELECT * FROM enquiries')).rows[0]!;
    expect(row).toMatchObject({
      name: 'Jo Bloggs',
      email: 'jo@example.com',
      phone: '0141 496 0000',
      subject: 'Roof leak',
      message: 'Water is\ncoming in.',
      disposition: 'accepted',
      verification: 'not-configured',
      reference: enquiryReference(1),
      claim_role: null,
      postcode: null,
    });
    expect(
      (await db.execute("SELECT kind FROM enquiry_notifications WHERE status = 'pending' ORDER BY id")).rows.map((r) => r.kind),
    ).toEqual(['notification', 'acknowledgement']);
    expect(woken).toBe(1);
  });

  it('with ENQUIRY_ACKNOWLEDGE off, queues the notification only', async () => {
    expect((await handler({ ENQUIRY_ACKNOWLEDGE: 'off' })(contactRequest(valid))).status).toBe(201);
    expect((await db.execute('SELECT kind FROM enquiry_notifications')).rows.map((r) => r.kind)).toEqual(['notification']);
  });

  it('refuses what is not JSON with 415, more than 32 KiB with 413, malformed JSON with 400', async () => {
    const handle = handler();
    expect((await handle(contactRequest(null, { contentType: 'text/plain', raw: JSON.stringify(valid) }))).status).toBe(415);
    expect((await handle(contactRequest(null, { contentType: 'application/x-www-form-urlencoded', raw: 'name=x' }))).status).toBe(415);
    const big = await handle(contactRequest({ ...valid, message: 'x'.repeat(33 * 1024) }));
    expect(big).toMatchObject({
      status: 413,
      body: { success: false, message: 'The enquiry is larger than 32 KiB.', reason: 'too-large' },
    });
    expect(await handle(contactRequest(null, { raw: '{"name": "Jo",' }))).toMatchObject({
      status: 400,
      body: { success: false, message: 'The body is not valid JSON.', reason: 'malformed' },
    });
    expect((await handle(contactRequest(null, { raw: '[1,2]' }))).status).toBe(400);
    expect((await handle(contactRequest(null, { raw: 'null' }))).status).toBe(400);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });

  it('answers 422 with the field messages under errors [{path, msg}]', async () => {
    const result = await handler()(contactRequest({ name: 'J', email: 'nope', subject: 'Hi', message: 'short', phone: 'x'.repeat(41) }));
    expect(result).toEqual({
      status: 422,
      body: {
        success: false,
        message: 'Please correct the highlighted fields.',
        reason: 'invalid',
        errors: [
          { path: 'name', msg: 'Name must be at least 2 characters long' },
          { path: 'email', msg: 'Please enter a valid email address' },
          { path: 'phone', msg: 'Phone must be at most 40 characters long' },
          { path: 'subject', msg: 'Subject must be at least 5 characters long' },
          { path: 'message', msg: 'Message must be at least 10 characters long' },
        ],
      },
    });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });

  it('answers a filled honeypot normally, keeps the enquiry as spam and does not notify', async () => {
    const result = await handler()(contactRequest({ ...valid, website: 'http://spam.example' }));
    expect(result.status).toBe(201);
    // Answered like any other, reference included, so the trap is not revealed.
    expect(result.body).toEqual({ success: true, message: 'Your message has been sent successfully!', reference: enquiryReference(1) });
    expect((await db.execute('SELECT disposition, verification FROM enquiries')).rows[0]).toMatchObject({
      disposition: 'spam',
      verification: 'honeypot',
    });
    expect(await count('SELECT count(*) AS n FROM enquiry_notifications')).toBe(0);
    expect(woken).toBe(0);
  });

  it('stores a resubmission of the same enquiry from the same client once, and answers success', async () => {
    const handle = handler();
    const first = await handle(contactRequest(valid, { address: '192.0.2.7' }));
    const again = await handle(contactRequest({ ...valid, name: ' Jo Bloggs ' }, { address: '192.0.2.7' }));
    const otherClient = await handle(contactRequest(valid, { address: '192.0.2.8' }));
    expect([first.status, again.status, otherClient.status]).toEqual([201, 201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(2);
    // Each stored enquiry once: its notification; one acknowledgement, as both name the same address.
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).toBe(2);
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'acknowledgement'")).toBe(1);
  });

  it("answers a retry carrying the enquiry's key with the first answer, from any address: nothing stored or notified again", async () => {
    const handle = handler();
    const key = newEnquiryKey();
    const first = await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '192.0.2.7' }));
    // The phone moved from Wi-Fi to mobile: another address, the same key.
    const retry = await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '198.51.100.9' }));
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body).toEqual(first.body);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM enquiries WHERE enquiry_key IS NOT NULL')).toBe(1);
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'acknowledgement'")).toBe(1);
  });

  it('another key is another enquiry unless it is the same content from the same client; a key is forgotten once no phone keeps its claim', async () => {
    let now = Date.parse('2026-11-25T10:00:00Z');
    const handle = createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined, now: () => now });
    const key = newEnquiryKey();
    const first = await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '192.0.2.7' }));
    // Sent again after the answer, as the visitor does to add forgotten photos: the same enquiry.
    const sentAgain = await handle(contactRequest({ ...valid, enquiryKey: newEnquiryKey() }, { address: '192.0.2.7' }));
    expect(sentAgain.body).toEqual(first.body);
    const otherKey = await handle(
      contactRequest({ ...valid, subject: 'Another leak', enquiryKey: newEnquiryKey() }, { address: '192.0.2.7' }),
    );
    expect(otherKey.body).not.toEqual(first.body);
    // As long as a phone keeps a kept claim, and a day more.
    now += KEPT_CLAIM_MAX_AGE_MS + 24 * 60 * 60_000 - 1000;
    expect((await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '192.0.2.8' }))).body).toEqual(first.body);
    now += 2000;
    expect((await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '192.0.2.8' }))).body).not.toEqual(first.body);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(3);
  });

  it('one key with other words is a new enquiry, notified as replacing the first; those words again are that second enquiry', async () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    const handle = createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined, now: () => now });
    const key = newEnquiryKey();
    const first = await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '192.0.2.7' }));
    // The answer was lost; the visitor changed their mind about what to say and sent the form again.
    const edited = {
      ...valid,
      name: 'Joanna Bloggs',
      email: 'joanna@example.com',
      message: 'The water is in the kitchen now as well.',
      enquiryKey: key,
    };
    const second = await handle(contactRequest(edited, { address: '198.51.100.9' }));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body).toMatchObject({ reference: enquiryReference(1) });
    expect(second.body).toMatchObject({ reference: enquiryReference(2) });
    // The edited try again (its answer lost too): the second enquiry, not a third; and the first words again: the first.
    expect((await handle(contactRequest(edited, { address: '192.0.2.7' }))).body).toEqual(second.body);
    expect((await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '198.51.100.9' }))).body).toEqual(first.body);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(2);
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).toBe(2);
    // Two addresses, so each is acknowledged, with its own reference.
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'acknowledgement'")).toBe(2);

    const outboxDir = mkdtempSync(path.join(tmpdir(), 'homecare-edited-resend-'));
    try {
      const worker = createOutboxWorker({
        db,
        mailer: createMailer({ smtpUrl: null, outboxDir }),
        from: 'site@example.com',
        to: 'office@example.com',
        pollMs: 1000,
        log: () => undefined,
        now: () => now,
      });
      await worker.runOnce();
      const notifications = outboxMessages(outboxDir)
        .map(parseMail)
        .filter((mail) => mail.subject.startsWith('Enquiry '));
      const of = (reference: string) => notifications.filter((mail) => mail.subject.startsWith(`Enquiry ${reference}:`));
      expect(of(enquiryReference(1))).toHaveLength(1);
      expect(of(enquiryReference(2))).toHaveLength(1);
      expect(of(enquiryReference(1))[0]!.text).toContain('Water is coming in.');
      expect(of(enquiryReference(1))[0]!.text).not.toContain('Sent again with changes');
      const resent = of(enquiryReference(2))[0]!.text;
      expect(resent).toContain('The water is in the kitchen now as well.');
      expect(resent).toContain('Joanna Bloggs');
      expect(resent).toContain(`Sent again with changes: this replaces ${enquiryReference(1)} sent at 2026-11-26T10:00:00.000Z.`);
    } finally {
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });

  it('an edited re-send counts against the client like any enquiry', async () => {
    const handle = handler({ CONTACT_RATE_LIMIT: '2' });
    const key = newEnquiryKey();
    expect((await handle(contactRequest({ ...valid, enquiryKey: key }, { address: '192.0.2.7' }))).status).toBe(201);
    expect(
      (await handle(contactRequest({ ...valid, message: 'Water is coming in fast.', enquiryKey: key }, { address: '192.0.2.7' }))).status,
    ).toBe(201);
    const third = await handle(
      contactRequest({ ...valid, message: 'Water is coming in faster.', enquiryKey: key }, { address: '192.0.2.7' }),
    );
    expect(third).toMatchObject({ status: 429, body: { reason: 'rate-limited' } });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(2);
  });

  it('drops a key that is not one the form makes, and compares content instead', async () => {
    const handle = handler();
    const first = await handle(contactRequest({ ...valid, enquiryKey: 'not-a-key' }, { address: '192.0.2.7' }));
    const again = await handle(contactRequest({ ...valid, enquiryKey: 'x'.repeat(5000) }, { address: '192.0.2.7' }));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await count('SELECT count(*) AS n FROM enquiries WHERE enquiry_key IS NULL')).toBe(1);
  });

  it('allows 5 accepted submissions per 10 minutes per client by default, then 429 with Retry-After', async () => {
    const handle = handler();
    const address = '198.51.100.1';
    // Invalid submissions do not use up the allowance.
    for (let i = 0; i < 3; i += 1) expect((await handle(contactRequest({ ...valid, name: '' }, { address }))).status).toBe(422);
    for (let i = 0; i < 5; i += 1) {
      expect((await handle(contactRequest({ ...valid, message: `Enquiry number ${i} here` }, { address }))).status).toBe(201);
    }
    const limited = await handle(contactRequest({ ...valid, message: 'One too many enquiries' }, { address }));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: 'Too many requests. Please try again later.', reason: 'rate-limited' });
    expect(Number(limited.headers?.['Retry-After'])).toBeGreaterThan(590);
    expect(Number(limited.headers?.['Retry-After'])).toBeLessThanOrEqual(600);
    expect((await handle(contactRequest(valid, { address: '198.51.100.2' }))).status).toBe(201);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(6);
  });

  it('takes the limit and window from CONTACT_RATE_LIMIT and CONTACT_RATE_WINDOW', async () => {
    const handle = handler({ CONTACT_RATE_LIMIT: '1', CONTACT_RATE_WINDOW: '30' });
    expect((await handle(contactRequest(valid, { address: '203.0.113.5' }))).status).toBe(201);
    const limited = await handle(contactRequest({ ...valid, subject: 'Another one' }, { address: '203.0.113.5' }));
    expect(limited.status).toBe(429);
    expect(limited.headers).toEqual({ 'Retry-After': '30' });
  });

  it('keys the limit on the address server.mjs resolved, never on a forged X-Forwarded-For, and IPv6 clients by their /64', async () => {
    const forwarded = (hop: string, subject: string) => {
      const request = contactRequest({ ...valid, subject }, { address: '127.0.0.1' });
      request.headers.set('x-forwarded-for', `${hop}, 10.0.0.1`);
      return request;
    };
    const handle = handler({ CONTACT_RATE_LIMIT: '1' });
    expect((await handle(forwarded('203.0.113.1', 'First subject'))).status).toBe(201);
    // A forged header does not make a new client.
    expect((await handle(forwarded('203.0.113.2', 'Second subject'))).status).toBe(429);
    // Two addresses of one /64 are one client; another /64 is another.
    expect((await handle(contactRequest({ ...valid, subject: 'Third subject' }, { address: '2001:db8:1:2::a' }))).status).toBe(201);
    expect((await handle(contactRequest({ ...valid, subject: 'Fourth subject' }, { address: '2001:db8:1:2:ffff::b' }))).status).toBe(429);
    expect((await handle(contactRequest({ ...valid, subject: 'Fifth subject' }, { address: '2001:db8:1:3::a' }))).status).toBe(201);
  });

  it('counts refused submissions against a separate, generous budget checked before the body is read', async () => {
    const handle = handler();
    const address = '198.51.100.20';
    const statuses: number[] = [];
    for (let i = 0; i < 32; i += 1) statuses.push((await handle(contactRequest({ ...valid, email: `typo-${i}` }, { address }))).status);
    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // Malformed bodies and wrong types count too, for a different client.
    const other = '198.51.100.21';
    for (let i = 0; i < 30; i += 1) await handle(contactRequest(null, { address: other, raw: '{not json' }));
    expect((await handle(contactRequest(valid, { address: other }))).status).toBe(429);
    // Someone correcting a few typos is not blocked.
    const person = '198.51.100.22';
    for (let i = 0; i < 3; i += 1) expect((await handle(contactRequest({ ...valid, name: 'J' }, { address: person }))).status).toBe(422);
    expect((await handle(contactRequest(valid, { address: person }))).status).toBe(201);
  });

  it('answers 503, not a crash, when the database is unavailable', async () => {
    const handle = createContactHandler({
      config: loadEnquiryConfig({}),
      db: async () => {
        throw new Error('disk gone');
      },
      wake: () => undefined,
    });
    const result = await handle(contactRequest(valid));
    expect(result.status).toBe(503);
    expect(result.headers).toEqual({ 'Retry-After': '60' });
  });
});

describe('enquiry configuration', () => {
  it('names a bad variable', () => {
    expect(() => loadEnquiryConfig({ CONTACT_RATE_LIMIT: 'lots' })).toThrow(/CONTACT_RATE_LIMIT/);
    expect(() => loadEnquiryConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadEnquiryConfig({ RECAPTCHA_MIN_SCORE: '2' })).toThrow(/RECAPTCHA_MIN_SCORE/);
  });
  it('accepts .env.example as it stands', () => {
    const lines = readFileSync('.env.example', 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line));
    const env = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    expect(env).toHaveProperty('CONTACT_RATE_WINDOW', '600');
    expect(loadEnquiryConfig(env)).toMatchObject({ rateLimit: 5, rateWindowMs: 600_000, recaptcha: null, smtpUrl: null, pollMs: 5000 });
  });

  it('has the documented defaults', () => {
    expect(loadEnquiryConfig({})).toMatchObject({
      rateLimit: 5,
      rateWindowMs: 600_000,
      recaptcha: null,
      smtpUrl: null,
      outboxDir: 'data/outbox',
      pollMs: 5000,
    });
    expect(loadEnquiryConfig({ RECAPTCHA_PROJECT_ID: 'p', RECAPTCHA_API_KEY: 'k' }).recaptcha).toMatchObject({ minScore: 0.5 });
  });
});
