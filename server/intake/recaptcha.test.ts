import { enquiryReference } from '@/lib/enquiry-reference';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { isPlausibleRecaptchaToken, verifyRecaptcha } from '@/server/intake/recaptcha';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { contactRequest, startFakeAssessment, tempDatabase } from '@/tests/support/enquiry-peers';
import { recaptchaTestToken as token } from '@/tests/support/recaptcha-tokens';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

let fakeAssessment: Awaited<ReturnType<typeof startFakeAssessment>>;
let db: Client;
let cleanup: () => void;

beforeAll(async () => {
  fakeAssessment = await startFakeAssessment();
});
afterAll(() => fakeAssessment.close());
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  fakeAssessment.requests.length = 0;
});
afterEach(() => cleanup());

function config() {
  return loadEnquiryConfig({
    RECAPTCHA_PROJECT_ID: 'homecare-test',
    RECAPTCHA_API_KEY: 'test-api-key',
    NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 'test-site-key',
    RECAPTCHA_ASSESSMENT_URL: fakeAssessment.url,
    RECAPTCHA_TIMEOUT_MS: '300',
  });
}

function handler() {
  return createContactHandler({ config: config(), db: async () => db, wake: () => undefined });
}

async function stored() {
  const enquiries = (await db.execute('SELECT disposition, verification, recaptcha_score FROM enquiries')).rows.map((row) => ({ ...row }));
  // The outbox's jobs by kind: an accepted enquiry is notified and acknowledged, a suspect one neither.
  const jobs = (await db.execute('SELECT kind FROM enquiry_notifications ORDER BY id')).rows.map((row) => row.kind);
  return { enquiries, jobs };
}

describe('reCAPTCHA Enterprise verification against a local assessment endpoint', () => {
  it('valid token, action contact_form, score 0.9: stored as verified and notified', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: token('valid') }));
    expect(result).toEqual({
      status: 201,
      body: { success: true, message: 'Your message has been sent successfully!', reference: enquiryReference(1) },
    });
    expect(await stored()).toEqual({
      enquiries: [{ disposition: 'accepted', verification: 'verified', recaptcha_score: 0.9 }],
      jobs: ['notification', 'acknowledgement'],
    });
    expect(fakeAssessment.requests).toHaveLength(1);
    expect(fakeAssessment.requests[0]!.url).toBe('/v1/projects/homecare-test/assessments?key=test-api-key');
    expect(fakeAssessment.requests[0]!.body).toEqual({
      event: { token: token('valid'), siteKey: 'test-site-key', expectedAction: 'contact_form' },
    });
  });

  it('wrong action: 400 with a clear message, nothing stored', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: token('wrong-action') }));
    expect(result).toEqual({
      status: 400,
      body: { success: false, message: 'The reCAPTCHA check failed. Please reload the page and try again.', reason: 'captcha' },
    });
    expect(await stored()).toEqual({ enquiries: [], jobs: [] });
  });

  it('invalid token: 400, nothing stored', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: token('invalid') }));
    expect(result.status).toBe(400);
    expect(result.body.message).toBe('The reCAPTCHA check failed. Please reload the page and try again.');
    expect(await stored()).toEqual({ enquiries: [], jobs: [] });
  });

  it('missing token: 400 without asking Google', async () => {
    const result = await handler()(contactRequest(valid));
    expect(result).toEqual({
      status: 400,
      body: { success: false, message: 'The reCAPTCHA check is missing. Please reload the page and try again.', reason: 'captcha' },
    });
    expect(fakeAssessment.requests).toHaveLength(0);
  });

  it('low score: answered as success, stored as suspect and not notified', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: token('low-score') }));
    expect(result.status).toBe(201);
    expect(await stored()).toEqual({ enquiries: [{ disposition: 'suspect', verification: 'low-score', recaptcha_score: 0.1 }], jobs: [] });
  });

  it('timeout: the enquiry is kept, marked unverified, and notified, but not acknowledged (only verified senders are)', async () => {
    const started = Date.now();
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: token('slow') }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.status).toBe(201);
    expect(await stored()).toEqual({
      enquiries: [{ disposition: 'accepted', verification: 'unverified', recaptcha_score: null }],
      jobs: ['notification'],
    });
  });

  it('Google answering 503: kept as unverified', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: token('server-error') }));
    expect(result.status).toBe(201);
    expect((await stored()).enquiries).toEqual([{ disposition: 'accepted', verification: 'unverified', recaptcha_score: null }]);
  });

  it('Google unreachable (connection refused): kept as unverified', async () => {
    const config = loadEnquiryConfig({
      RECAPTCHA_PROJECT_ID: 'homecare-test',
      RECAPTCHA_API_KEY: 'k',
      RECAPTCHA_ASSESSMENT_URL: 'http://127.0.0.1:9/v1/projects/{projectId}/assessments',
    });
    const result = await createContactHandler({ config, db: async () => db, wake: () => undefined })(
      contactRequest({ ...valid, recaptchaToken: token('valid') }),
    );
    expect(result.status).toBe(201);
    expect((await stored()).enquiries).toEqual([{ disposition: 'accepted', verification: 'unverified', recaptcha_score: null }]);
  });

  it('a 4xx answer that says the request or token is bad (400, 403) refuses the enquiry; 429 keeps it as unverified', async () => {
    for (const scenario of ['bad-request', 'forbidden']) {
      const result = await handler()(contactRequest({ ...valid, subject: `Refused ${scenario}`, recaptchaToken: token(scenario) }));
      expect(result, scenario).toEqual({
        status: 400,
        body: { success: false, message: 'The reCAPTCHA check failed. Please reload the page and try again.', reason: 'captcha' },
      });
    }
    expect(await stored()).toEqual({ enquiries: [], jobs: [] });
    const quota = await handler()(contactRequest({ ...valid, recaptchaToken: token('rate-limited') }));
    expect(quota.status).toBe(201);
    expect((await stored()).enquiries).toEqual([{ disposition: 'accepted', verification: 'unverified', recaptcha_score: null }]);
  });

  it('refuses a token that cannot be real (characters, length) without asking Google', async () => {
    for (const implausible of [
      'short',
      'x'.repeat(99),
      `${token('valid')}!`,
      token('valid').replace('x', ' '),
      'x'.repeat(4001),
      `${'x'.repeat(200)}\u00e9`,
    ]) {
      expect(isPlausibleRecaptchaToken(implausible), implausible.slice(0, 20)).toBe(false);
      const result = await handler()(contactRequest({ ...valid, recaptchaToken: implausible }));
      expect(result.status).toBe(400);
      expect(result.body.message).toBe('The reCAPTCHA check failed. Please reload the page and try again.');
    }
    expect(fakeAssessment.requests).toHaveLength(0);
    expect(isPlausibleRecaptchaToken(token('valid'))).toBe(true);
    expect(isPlausibleRecaptchaToken('A-_'.repeat(1333))).toBe(true);
    expect(await verifyRecaptcha('x'.repeat(5), config().recaptcha!)).toEqual({ kind: 'invalid', reason: 'IMPLAUSIBLE_TOKEN' });
  });

  it('counts every assessment against the client: failing tokens run into 429 and stop reaching Google', async () => {
    const limited = createContactHandler({
      config: config(),
      db: async () => db,
      wake: () => undefined,
      limiter: createRateLimiter({ limit: 5, windowMs: 600_000 }),
    });
    const address = '198.51.100.7';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      statuses.push((await limited(contactRequest({ ...valid, recaptchaToken: token('invalid', attempt) }, { address }))).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    expect(fakeAssessment.requests).toHaveLength(5);
    // Another client is not affected.
    expect((await limited(contactRequest({ ...valid, recaptchaToken: token('valid') }, { address: '198.51.100.8' }))).status).toBe(201);
  });
});
