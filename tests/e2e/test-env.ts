// One place for the ports and settings the browser tests build and serve with.
// TEST_PORT_OFFSET lets several checkouts run their browser tests side by side.
const offset = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const testPorts = { site: 3100 + offset, crm: 4010 + offset };

export const testSiteUrl = `http://127.0.0.1:${testPorts.site}`;
export const standInCrmUrl = `http://127.0.0.1:${testPorts.crm}`;

export const testRecaptchaSiteKey = '6LeTestSiteKeyForHomecareBrowserTests';
export const testOutboxDir = 'data/test/outbox';

/** Environment of the production build and server the browser tests run against. */
export const testBuildEnv: Record<string, string> = {
  NEXT_DIST_DIR: '.next-test',
  NEXT_TELEMETRY_DISABLED: '1',
  SITE_URL: 'http://localhost:3000',
  PORT: String(testPorts.site),
  DATABASE_URL: 'file:data/test/site.db',
  NEXT_PUBLIC_API_URL: '',
  // The browser tests talk to a stand-in CRM (tests/support/stand-in-crm.ts) they can steer.
  NEXT_PUBLIC_CRM_URL: standInCrmUrl,
  // A test site key: the contact form then loads Google's script on engagement and asks for a token;
  // the browser tests route https://www.google.com/recaptcha/** to a local stand-in script. The server
  // has no RECAPTCHA_PROJECT_ID here, so it does not verify (the integration tests cover that).
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: testRecaptchaSiteKey,
  // Enquiry notifications are written as .eml files here (no SMTP_URL); delivered within a second.
  ENQUIRY_OUTBOX_DIR: testOutboxDir,
  ENQUIRY_POLL_SECONDS: '1',
  // High enough for the whole suite from one address; the 429 path is tested with a stand-in answer
  // in the browser and with the default limit in server/enquiries/contact-handler.test.ts.
  CONTACT_RATE_LIMIT: '1000',
  // Compiles in components/testing/e2e-faults.tsx (render and logging faults); no other build has them.
  NEXT_PUBLIC_E2E_FAULTS: '1',
};
