// One place for the ports and settings the browser tests build and serve with.
// TEST_PORT_OFFSET lets several checkouts run their browser tests side by side; TEST_LANE (a name) gives a
// run in the same checkout build and data folders of its own, as the test command's other Node line has.
import { testCrmEventsSecret } from '../support/crm-event';
import { testWebhookSecret } from '../support/webhook-secret';

const offset = Number(process.env.TEST_PORT_OFFSET ?? 0);
const lane = process.env.TEST_LANE ? `-${process.env.TEST_LANE}` : '';
/** The data folders of the two builds' servers, emptied before each build. */
export const testDataDir = `data/test${lane}`;
export const productionDataDir = `data/test-production${lane}`;
export const testPorts = {
  site: 3100 + offset,
  crm: 4010 + offset,
  // The production-configuration build has a fake CRM of its own, so the two builds' specs can run side
  // by side without one's gallery scenario or error logs showing in the other's.
  productionCrm: 4011 + offset,
  // The production-configuration build and the peers it talks to (tests/support/production-peers.ts).
  productionSite: 3101 + offset,
  smtp: 4025 + offset,
  assessment: 4026 + offset,
  peersControl: 4027 + offset,
  webhooks: 4028 + offset,
};

export const testSiteUrl = `http://127.0.0.1:${testPorts.site}`;
export const fakeCrmUrl = `http://127.0.0.1:${testPorts.crm}`;
export const productionFakeCrmUrl = `http://127.0.0.1:${testPorts.productionCrm}`;
export const productionSiteUrl = `http://127.0.0.1:${testPorts.productionSite}`;
export const peersControlUrl = `http://127.0.0.1:${testPorts.peersControl}`;

export const testRecaptchaSiteKey = '6LeTestSiteKeyForHomecareBrowserTests';
export const testOutboxDir = `${testDataDir}/outbox`;
export { testCrmEventsSecret };

/** Environment of the production build and server the browser tests run against. */
export const testBuildEnv: Record<string, string> = {
  NEXT_DIST_DIR: `.next-test${lane}`,
  NEXT_TELEMETRY_DISABLED: '1',
  SITE_URL: 'http://localhost:3000',
  PORT: String(testPorts.site),
  DATABASE_URL: `file:${testDataDir}/site.db`,
  NEXT_PUBLIC_API_URL: '',
  // The browser tests talk to a fake CRM (scripts/support/fake-crm.ts) they can steer.
  NEXT_PUBLIC_CRM_URL: fakeCrmUrl,
  // A test site key: the contact form then loads Google's script on engagement and asks for a token;
  // the browser tests route https://www.google.com/recaptcha/** to a local fake script. The server
  // has no RECAPTCHA_PROJECT_ID here, so it does not verify (the integration tests cover that).
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: testRecaptchaSiteKey,
  // Enquiry notifications are written as .eml files here (no SMTP_URL); delivered within a second.
  ENQUIRY_OUTBOX_DIR: testOutboxDir,
  ENQUIRY_POLL_SECONDS: '1',
  ENQUIRY_PHOTOS_DIR: `${testDataDir}/enquiry-photos`,
  // High enough for the whole suite from one address; the 429 path is tested with a fake answer
  // in the browser and with the default limit in server/intake/contact-handler.test.ts.
  CONTACT_RATE_LIMIT: '1000',
  // The test build: its `.e2e.*` files under app/ (the faults the browser tests trigger) are routes and
  // pages (next.config.ts, docs/testing.md); no other build has them.
  NEXT_PUBLIC_E2E_FAULTS: '1',
  // No copy kept: each GET /gallery reads the list for its first-photo header (waiting for it as any
  // request with a stale copy does), and the optimiser caches nothing, so both follow each test's gallery.
  GALLERY_REFRESH_SECONDS: '0',
  // The CRM's claim events (POST /api/crm/events) are on, signed with this secret.
  CRM_EVENTS_SECRET: testCrmEventsSecret,
};

/**
 * The production configuration: every integration an environment variable switches on is on, each
 * answered by a local peer speaking its protocol. reCAPTCHA: a site key (Google's script is routed to
 * the fake in the browser) and server-side assessments against the assessment fake; SMTP to an
 * in-process SMTP server; the CRM on another origin (the fake CRM). No test-only faults.
 */
export const productionConfigEnv: Record<string, string> = {
  NEXT_DIST_DIR: `.next-test-production${lane}`,
  NEXT_TELEMETRY_DISABLED: '1',
  SITE_URL: 'https://www.example.com',
  PORT: String(testPorts.productionSite),
  DATABASE_URL: `file:${productionDataDir}/site.db`,
  ENQUIRY_PHOTOS_DIR: `${productionDataDir}/enquiry-photos`,
  NEXT_PUBLIC_API_URL: '',
  NEXT_PUBLIC_CRM_URL: productionFakeCrmUrl,
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: testRecaptchaSiteKey,
  RECAPTCHA_PROJECT_ID: 'homecare-e2e',
  RECAPTCHA_API_KEY: 'e2e-assessment-key',
  RECAPTCHA_ASSESSMENT_URL: `http://127.0.0.1:${testPorts.assessment}/v1/projects/{projectId}/assessments`,
  SMTP_URL: `smtp://127.0.0.1:${testPorts.smtp}`,
  ENQUIRY_TO: 'office@homecare.test',
  ENQUIRY_FROM: 'website@homecare.test',
  ENQUIRY_POLL_SECONDS: '1',
  // Every journey sends one enquiry from 127.0.0.1; the limit itself is tested in the integration tests.
  CONTACT_RATE_LIMIT: '1000',
  // The journeys send dozens of enquiries within the hour, each expecting its acknowledgement; the
  // hourly cap and the one-a-day-per-address rule are tested in server/intake/abuse.test.ts.
  ENQUIRY_ACKNOWLEDGE_PER_HOUR: '1000',
  ENQUIRY_ACKNOWLEDGE_PER_CLIENT_PER_HOUR: '1000',
  // The company's CRM told of each enquiry: the fake receiver of tests/support/production-peers.ts.
  CRM_WEBHOOK_URL: `http://127.0.0.1:${testPorts.webhooks}/hooks/homecare`,
  CRM_WEBHOOK_SECRET: testWebhookSecret,
};
