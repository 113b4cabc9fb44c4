import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, headlessShellPath } from './scripts/support/chromium';
import { ownServerSpecs, productionSpecs } from './tests/e2e/production-specs.mjs';
import {
  peersControlUrl,
  productionConfigEnv,
  productionSiteUrl,
  fakeCrmUrl,
  productionFakeCrmUrl,
  testBuildEnv,
  testPorts,
  testSiteUrl,
} from './tests/e2e/test-env';

// The builds scripts/test/build-for-tests.ts made (TEST_BUILDS, both by default): under the other Node
// line the test command builds the production configuration only.
const builds = (process.env.TEST_BUILDS ?? 'test,production').split(',');

/** A build's server and its fake CRM (scripts/support/fake-crm.ts), each build's own. */
function siteWithItsCrm(site: { url: string; env: Record<string, string> }, crm: { url: string; port: number }) {
  return [
    {
      command: 'npx tsx scripts/support/fake-crm.ts',
      url: `${crm.url}/__control/health`,
      env: { FAKE_CRM_PORT: String(crm.port) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'node server.mjs',
      url: `${site.url}/`,
      env: site.env,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe' as const,
    },
  ];
}

export default defineConfig({
  testDir: 'tests/e2e',
  // Playwright empties its output folder when it starts: a lane running beside this run has its own.
  outputDir: process.env.TEST_LANE ? `test-results-${process.env.TEST_LANE}` : 'test-results',
  forbidOnly: !!process.env.CI,
  // Nothing is retried, in CI or here: a test that passes only on its second try is a failing test,
  // fixed at its cause (docs/testing.md, "Retries").
  retries: 0,
  // The two builds' specs run side by side, each build's one after another: the specs of one build share
  // its server, its database and its fake services, the two builds share nothing (each has its own fake
  // CRM and data folder). A third worker runs the test build's specs that start servers of their own.
  // Measured on the 2-CPU machines: docs/testing.md.
  workers: 3,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: testSiteUrl,
    // A trace costs every test CPU and CI keeps no files: recorded here, where a failure's is read.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // The site's service worker answers navigations and build assets itself, and Playwright's routes do
    // not see requests a service worker makes: the specs that need it (offline-claim) allow it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: headlessShellPath,
      args: [...chromiumArgs],
    },
  },
  projects: [
    // The default test build (tests/e2e/test-env.ts testBuildEnv): every spec but those below.
    ...(builds.includes('test')
      ? [
          {
            name: 'chromium',
            testIgnore: [productionSpecs, ownServerSpecs],
            workers: 1,
            use: { ...devices['Desktop Chrome'], channel: undefined },
          },
          // The test build's specs that start servers of their own (tests/e2e/production-specs.mjs).
          {
            name: 'own-servers',
            testMatch: ownServerSpecs,
            workers: 1,
            use: { ...devices['Desktop Chrome'], channel: undefined },
          },
        ]
      : []),
    // The production-configuration build (productionConfigEnv): visitors' journeys with every integration on,
    // in Chromium and (engines.spec.ts) in Firefox and WebKit, the form posted without JavaScript, the
    // company's digest (digest.spec.ts), the portfolio link asked for by e-mail (portfolio-request.spec.ts),
    // and the pages' own specs (tests/e2e/production-specs.mjs).
    ...(builds.includes('production')
      ? [
          {
            name: 'production-config',
            testMatch: productionSpecs,
            workers: 1,
            use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: productionSiteUrl },
          },
        ]
      : []),
  ],
  webServer: [
    ...(builds.includes('test') ? siteWithItsCrm({ url: testSiteUrl, env: testBuildEnv }, { url: fakeCrmUrl, port: testPorts.crm }) : []),
    ...(builds.includes('production')
      ? [
          {
            command: 'npx tsx --conditions=react-server tests/support/production-peers.ts',
            url: `${peersControlUrl}/__control/health`,
            env: {
              FAKE_SMTP_PORT: String(testPorts.smtp),
              FAKE_ASSESSMENT_PORT: String(testPorts.assessment),
              FAKE_PEERS_CONTROL_PORT: String(testPorts.peersControl),
              FAKE_WEBHOOK_PORT: String(testPorts.webhooks),
            },
            reuseExistingServer: false,
            timeout: 30_000,
          },
          ...siteWithItsCrm(
            { url: productionSiteUrl, env: productionConfigEnv },
            { url: productionFakeCrmUrl, port: testPorts.productionCrm },
          ),
        ]
      : []),
  ],
});
