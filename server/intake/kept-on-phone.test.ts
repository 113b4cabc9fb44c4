import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE } from '@/lib/offline/protocol';
import { enquiryReference } from '@/lib/enquiry-reference';
import { contactRequest, startFakeAssessment, tempDatabase } from '@/tests/support/enquiry-peers';

// A claim the service worker kept on a phone with no signal and sent later: it can carry no reCAPTCHA token.
const claim = {
  name: 'Màiri NicLeòid',
  email: 'mairi@example.com',
  phone: '',
  subject: 'Burst pipe',
  message: 'The kitchen ceiling came down.',
};

let fakeAssessment: Awaited<ReturnType<typeof startFakeAssessment>>;
let db: Client;
let cleanup: () => void;

beforeAll(async () => {
  fakeAssessment = await startFakeAssessment();
});
afterAll(() => fakeAssessment.close());
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

function handler(withRecaptcha: boolean) {
  const config = loadEnquiryConfig(
    withRecaptcha
      ? {
          RECAPTCHA_PROJECT_ID: 'homecare-test',
          RECAPTCHA_API_KEY: 'test-api-key',
          NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 'test-site-key',
          RECAPTCHA_ASSESSMENT_URL: fakeAssessment.url,
        }
      : {},
  );
  return createContactHandler({ config, db: async () => db, wake: () => undefined });
}

function keptRequest(body: object, kept = true): Request {
  const request = contactRequest(body);
  if (kept) request.headers.set(KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE);
  return request;
}

async function stored() {
  const enquiries = (await db.execute('SELECT disposition, verification, verification_detail FROM enquiries')).rows.map((row) => ({
    ...row,
  }));
  const jobs = (await db.execute('SELECT kind FROM enquiry_notifications ORDER BY id')).rows.map((row) => row.kind);
  return { enquiries, jobs };
}

describe('a claim kept on the phone and sent later by the service worker', () => {
  it('with bot protection on: stored unverified, notified, not acknowledged, and Google never asked', async () => {
    const result = await handler(true)(keptRequest({ ...claim, recaptchaToken: '' }));
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ success: true, reference: enquiryReference(1) });
    expect(await stored()).toEqual({
      enquiries: [
        {
          disposition: 'accepted',
          verification: 'unverified',
          verification_detail: 'kept on the phone with no signal and sent later by its service worker: bot protection could not run',
        },
      ],
      jobs: ['notification'],
    });
  });

  it('the same request without the header is refused for its missing token, as before', async () => {
    const result = await handler(true)(keptRequest({ ...claim, recaptchaToken: '' }, false));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      reason: 'captcha',
      message: 'The reCAPTCHA check is missing. Please reload the page and try again.',
    });
    expect((await stored()).enquiries).toEqual([]);
  });

  it('without bot protection: an enquiry like any other, acknowledged', async () => {
    const result = await handler(false)(keptRequest({ ...claim }));
    expect(result.status).toBe(201);
    expect(await stored()).toEqual({
      enquiries: [{ disposition: 'accepted', verification: 'not-configured', verification_detail: null }],
      jobs: ['notification', 'acknowledgement'],
    });
  });
});
