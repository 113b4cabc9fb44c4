// One place for the ports and settings the browser tests build and serve with.
// TEST_PORT_OFFSET lets several checkouts run their browser tests side by side.
const offset = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const testPorts = { site: 3100 + offset, crm: 4010 + offset };

export const testSiteUrl = `http://127.0.0.1:${testPorts.site}`;
export const standInCrmUrl = `http://127.0.0.1:${testPorts.crm}`;

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
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: '',
  // Compiles in components/testing/e2e-faults.tsx (render and logging faults); no other build has them.
  NEXT_PUBLIC_E2E_FAULTS: '1',
};
