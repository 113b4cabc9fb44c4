/**
 * The unit test files that run each in a fresh module registry: those that replace modules (`vi.mock`,
 * `vi.doMock`, `vi.resetModules`), stub globals or the environment, or set `process.env` themselves. The
 * rest share one registry per worker (Vitest's `isolate: false`), which spares re-importing the same
 * modules for every file (measured: 230 s to 170 s for the whole unit suite on 2 CPUs).
 * `tests/support/isolated-test-files.test.ts` fails when a file that needs isolation is not listed.
 * Plain JavaScript, so vitest.config.ts imports it with no compile step.
 * @type {string[]}
 */
export const ISOLATED_TEST_FILES = [
  'app/api/error-logs/route.test.ts',
  'components/contact/contact-form-api-elsewhere.test.tsx',
  'components/contact/contact-form-recaptcha.test.tsx',
  'components/contact/signed-in-sender.test.tsx',
  'components/errors/error-boundary.test.tsx',
  'lib/api-client.test.ts',
  'lib/browser.test.ts',
  'lib/gallery/early-start-script.test.ts',
  'scripts/node/supported-node.test.ts',
  'scripts/site/build.test.ts',
  'scripts/site/ensure-build.test.ts',
  'server/base/config.test.ts',
  'server/base/private-files.test.ts',
  'server/claims/claim-pages.test.ts',
  'server/gallery/routes.test.ts',
  'server/intake/photo-durability.test.ts',
  'server/reports/health.test.ts',
];

/** What in a test file's text means it needs a registry of its own. */
export const NEEDS_ISOLATION =
  /vi\.(?:mock|doMock|unmock|resetModules|stubGlobal|stubEnv)\(|process\.env(?:\.[A-Za-z_]+|\[[^\]]+\])\s*=[^=]|delete process\.env/;
