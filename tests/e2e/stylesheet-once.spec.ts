import { expect, test } from './support/test';
import { measureRouteHtml } from '../../scripts/bench/route-js';
import { allRoutes } from '../../scripts/support/routes';
import { productionConfigEnv } from './test-env';

// The stylesheet travels once per page load: in the page's <style>, not again inside the flight data
// (scripts/site/inline-css-once.ts), so that a page's HTML fits a phone connection's first round trips.
const distDir = productionConfigEnv.NEXT_DIST_DIR!;
const HTML_GZIP_BUDGET = 20 * 1024;

for (const route of allRoutes) {
  test(`${route.path}: the stylesheet once in its HTML, at most 20 KB gzipped`, () => {
    const html = measureRouteHtml(distDir, route.path);
    test.info().annotations.push({ type: 'html', description: `${html.gzipBytes} B gzipped, ${html.bytes} B raw` });
    expect(html.stylesheetCopies).toBe(1);
    expect(html.gzipBytes).toBeLessThanOrEqual(HTML_GZIP_BUDGET);
  });
}

test('a visitor who lands on one page and moves by links keeps the styles, without fetching a stylesheet', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const stylesheetRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet' || new URL(request.url()).pathname.endsWith('.css')) stylesheetRequests.push(request.url());
  });
  const styled = async () => {
    await expect(page.locator('style[data-href]')).toHaveCount(1);
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
    // The sticky bar and the brand's heading colour come from the stylesheet alone.
    await expect(page.getByRole('banner')).toHaveCSS('position', 'sticky');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveCSS('color', 'rgb(0, 0, 0)');
    expect(await page.locator('style[data-href]').evaluate((style) => style.textContent?.length ?? 0)).toBeGreaterThan(10_000);
  };

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Expert Insurance Repairs Minimal Disruption');
  await styled();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [label, path, h1] of [
    ['About Us', '/about', 'About Us'],
    ['Contact', '/contact', 'Contact Us'],
    ['Services', '/services', 'Our Services'],
  ] as const) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    await styled();
  }
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  await styled();
  expect(stylesheetRequests).toEqual([]);
  expect(problems).toEqual([]);
});
