import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { spawnSiteServer } from '../../scripts/support/site-server';
import { buildSettingsOf } from '../../server/base/build-settings.mjs';
import { testBuildEnv, testPorts } from './test-env';

// The test build records the build-time settings it was made with, and its server refuses to start
// when the environment asks for others, naming each, rather than publish the build's values.

test('the build records SITE_URL and the NEXT_PUBLIC_* values it was made with', () => {
  const manifest = JSON.parse(readFileSync(path.join(testBuildEnv.NEXT_DIST_DIR!, 'csp-manifest.json'), 'utf8'));
  expect(manifest.builtWith).toEqual(buildSettingsOf(testBuildEnv));
});

test('node server.mjs started with another SITE_URL and NEXT_PUBLIC_CRM_URL exits 1 naming both, before listening', async () => {
  const port = testPorts.site + 40;
  const server = spawnSiteServer({ port, env: { ...testBuildEnv, SITE_URL: 'https://www.example.org', NEXT_PUBLIC_CRM_URL: '' } });
  expect(await server.exited).toBe(1);
  const stderr = server.output();
  expect(stderr).toContain(
    `The build in ${testBuildEnv.NEXT_DIST_DIR} was made with other values of settings that are fixed when the site is built:`,
  );
  expect(stderr).toContain('  SITE_URL: built with http://localhost:3000, now https://www.example.org');
  expect(stderr).toContain(`  NEXT_PUBLIC_CRM_URL: built with ${testBuildEnv.NEXT_PUBLIC_CRM_URL}, now (empty)`);
  expect(stderr).not.toContain('NEXT_PUBLIC_RECAPTCHA_SITE_KEY');
  await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
});
