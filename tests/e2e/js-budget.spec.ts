import { expect, test } from './support/test';
import { measureRouteJs } from '../../scripts/bench/route-js';
import { FLOOR_GZIP_BYTES, jsBudgetOverFloor } from '../../scripts/bench/js-budget';
import { allRoutes as routes } from '../../scripts/support/routes';
import { productionConfigEnv, productionSiteUrl } from './test-env';

// Bytes, not timings: the gzipped JavaScript each route's prerendered HTML references, in the
// production-configuration build (.next-test-production: what the site runs as, without the test
// build's fault switches), against the bare-Next floor plus the route's budget.
const distDir = productionConfigEnv.NEXT_DIST_DIR!;

test('every route has a budget', () => {
  expect(Object.keys(jsBudgetOverFloor).sort()).toEqual(routes.map((route) => route.path).sort());
});

for (const route of routes) {
  const budget = jsBudgetOverFloor[route.path]!;
  test(`${route.path} ships at most ${Math.round(budget / 1024)} KB of gzipped JS above a bare Next page`, async ({ request }) => {
    const measured = measureRouteJs(distDir, route.path);
    expect(measured.scripts.length).toBeGreaterThan(0);
    // The HTML on disk is what the server sends: each script it lists is served with that exact size.
    const served = await request.get(new URL(measured.scripts[0]!.url, productionSiteUrl).href);
    expect((await served.body()).length).toBe(measured.scripts[0]!.bytes);
    const overFloor = measured.gzipBytes - FLOOR_GZIP_BYTES;
    test.info().annotations.push({ type: 'js', description: `${measured.gzipBytes} B gzipped, ${overFloor} B over the floor` });
    expect(overFloor, measured.scripts.map((script) => `${script.url}: ${script.gzipBytes}`).join('\n')).toBeLessThanOrEqual(budget);
  });
}
