import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { spawnSiteServer } from '../../scripts/support/site-server';
import { productionConfigEnv, testBuildEnv, testPorts } from './test-env';

// The faults the browser tests trigger exist only in the test build, whose `.e2e.*` files become routes
// and templates when it is built with NEXT_PUBLIC_E2E_FAULTS=1 (next.config.ts). They are chosen when the
// site is built, never at run time: a production build has no fault route to switch on, and its server
// refuses to start when the environment asks for the test build's setting.

const distDir = productionConfigEnv.NEXT_DIST_DIR!;
// Strings only the fault code holds: the route's error, a fault's name and the faults' component.
const FAULT_CODE = /E2E server fault|layout-render|e2e-faults/;

/**
 * The files of a build that hold its code, pages and manifests: not Next's cache of optimised images, nor
 * its file traces (`*.nft.json`), which list source files to deploy, not code (the home page's names the
 * whole project, the faults' source among it, because it reads files under public/ by a computed path).
 */
function builtFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:js|html|rsc|json)$/.test(entry.name) && !entry.name.endsWith('.nft.json'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.includes(`${path.sep}cache${path.sep}`));
}

const withFaultCode = (folder: string) => builtFiles(folder).filter((file) => FAULT_CODE.test(readFileSync(file, 'utf8')));

test('the production build has no test-only route, template or fault code in any file it serves or runs', { tag: '@smoke' }, () => {
  const routes = JSON.parse(readFileSync(path.join(distDir, 'server', 'app-paths-manifest.json'), 'utf8')) as Record<string, string>;
  expect(Object.keys(routes).length).toBeGreaterThan(10);
  expect(Object.keys(routes).filter((route) => /e2e/i.test(route))).toEqual([]);
  expect(builtFiles(distDir).length).toBeGreaterThan(50);
  expect(withFaultCode(distDir)).toEqual([]);
  // The same search finds the faults in the test build, when this run made one.
  if (existsSync(testBuildEnv.NEXT_DIST_DIR!)) expect(withFaultCode(testBuildEnv.NEXT_DIST_DIR!).length).toBeGreaterThan(0);
});

test(
  'the production server answers the fault route and the fault query as any unknown path and plain page',
  { tag: '@smoke' },
  async ({ request, page }) => {
    const route = await request.get('/api/e2e-fault');
    expect(route.status()).toBe(404);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto('/?e2e-fault=render');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(errors).toEqual([]);
  },
);

test('the production build started with NEXT_PUBLIC_E2E_FAULTS=1 exits 1 naming it, before listening', { tag: '@smoke' }, async () => {
  const port = testPorts.productionSite + 50;
  const server = spawnSiteServer({ port, env: { ...productionConfigEnv, NEXT_PUBLIC_E2E_FAULTS: '1' } });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('  NEXT_PUBLIC_E2E_FAULTS: built with (empty), now 1');
  await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
});
