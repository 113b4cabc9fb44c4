import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { loadEnquiryConfig } from '@/server/enquiries/config';
import { createContactHandler } from '@/server/enquiries/contact-handler';
import { contactRequest, startAssessmentStandIn, tempDatabase } from '@/tests/support/enquiry-peers';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

let standIn: Awaited<ReturnType<typeof startAssessmentStandIn>>;
let db: Client;
let cleanup: () => void;

beforeAll(async () => {
  standIn = await startAssessmentStandIn();
});
afterAll(() => standIn.close());
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  standIn.requests.length = 0;
});
afterEach(() => cleanup());

function handler() {
  const config = loadEnquiryConfig({
    RECAPTCHA_PROJECT_ID: 'homecare-test',
    RECAPTCHA_API_KEY: 'test-api-key',
    NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 'test-site-key',
    RECAPTCHA_ASSESSMENT_URL: standIn.url,
    RECAPTCHA_TIMEOUT_MS: '300',
  });
  return createContactHandler({ config, db: async () => db, wake: () => undefined });
}

async function stored() {
  const enquiries = (await db.execute('SELECT disposition, verification, recaptcha_score FROM enquiries')).rows.map((row) => ({ ...row }));
  const jobs = Number((await db.execute('SELECT count(*) AS n FROM enquiry_notifications')).rows[0]?.n);
  return { enquiries, jobs };
}

describe('reCAPTCHA Enterprise verification against a local assessment endpoint', () => {
  it('valid token, action contact_form, score 0.9: stored as verified and notified', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: 'valid' }));
    expect(result).toEqual({ status: 201, body: { success: true, message: 'Your message has been sent successfully!' } });
    expect(await stored()).toEqual({ enquiries: [{ disposition: 'accepted', verification: 'verified', recaptcha_score: 0.9 }], jobs: 1 });
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]!.url).toBe('/v1/projects/homecare-test/assessments?key=test-api-key');
    expect(standIn.requests[0]!.body).toEqual({ event: { token: 'valid', siteKey: 'test-site-key', expectedAction: 'contact_form' } });
  });

  it('wrong action: 400 with a clear message, nothing stored', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: 'wrong-action' }));
    expect(result).toEqual({
      status: 400,
      body: { success: false, message: 'The reCAPTCHA check failed. Please reload the page and try again.' },
    });
    expect(await stored()).toEqual({ enquiries: [], jobs: 0 });
  });

  it('invalid token: 400, nothing stored', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: 'invalid' }));
    expect(result.status).toBe(400);
    expect(result.body.message).toBe('The reCAPTCHA check failed. Please reload the page and try again.');
    expect(await stored()).toEqual({ enquiries: [], jobs: 0 });
  });

  it('missing token: 400 without asking Google', async () => {
    const result = await handler()(contactRequest(valid));
    expect(result).toEqual({
      status: 400,
      body: { success: false, message: 'The reCAPTCHA check is missing. Please reload the page and try again.' },
    });
    expect(standIn.requests).toHaveLength(0);
  });

  it('low score: answered as success, stored as suspect and not notified', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: 'low-score' }));
    expect(result.status).toBe(201);
    expect(await stored()).toEqual({ enquiries: [{ disposition: 'suspect', verification: 'low-score', recaptcha_score: 0.1 }], jobs: 0 });
  });

  it('timeout: the enquiry is kept, marked unverified, and notified', async () => {
    const started = Date.now();
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: 'slow' }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.status).toBe(201);
    expect(await stored()).toEqual({ enquiries: [{ disposition: 'accepted', verification: 'unverified', recaptcha_score: null }], jobs: 1 });
  });

  it('Google answering 503: kept as unverified', async () => {
    const result = await handler()(contactRequest({ ...valid, recaptchaToken: 'server-error' }));
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
      contactRequest({ ...valid, recaptchaToken: 'valid' }),
    );
    expect(result.status).toBe(201);
    expect((await stored()).enquiries).toEqual([{ disposition: 'accepted', verification: 'unverified', recaptcha_score: null }]);
  });
});
