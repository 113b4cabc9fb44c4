import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './support/test';
import { startSiteServer, type SiteServer } from '../../scripts/support/site-server';
import { watchCspViolations } from './support/csp-violations';
import { routeRecaptcha } from './support/fake-recaptcha';
import { fakeCrm } from './support/fake-crm';
import { fakeCrmUrl, testPorts, testRecaptchaSiteKey } from './test-env';

// `npm run dev` (node server.mjs --dev): Next's development server behind the same headers as a build,
// so a missing origin in the Content-Security-Policy shows up while developing. A visitor's walk by
// links from / to the gallery (the CRM on another origin) and the contact form (reCAPTCHA on
// engagement) must raise no violation under the development policy.

const port = testPorts.site + 70;
const base = `http://127.0.0.1:${port}`;
let site: SiteServer | undefined;
let work = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  work = mkdtempSync(path.join(tmpdir(), 'homecare-dev-'));
  site = await startSiteServer({
    port,
    dev: true,
    distDir: '.next-test-dev',
    env: {
      NODE_ENV: 'development',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: `file:${path.join(work, 'site.db')}`,
      ENQUIRY_OUTBOX_DIR: path.join(work, 'outbox'),
      NEXT_PUBLIC_API_URL: '',
      NEXT_PUBLIC_CRM_URL: fakeCrmUrl,
      NEXT_PUBLIC_RECAPTCHA_SITE_KEY: testRecaptchaSiteKey,
    },
    timeoutMs: 150_000,
  });
});

test.afterAll(async () => {
  await site?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the development server sends the security headers, with the build’s origins in the policy', async () => {
  const response = await fetch(`${base}/`);
  const policy = response.headers.get('content-security-policy') ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toMatch(new RegExp(`connect-src 'self' ${fakeCrmUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  expect(policy).toContain('https://www.gstatic.com/recaptcha/');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('permissions-policy')).toContain('camera=()');
});

test('a visit by links under the development policy: / → Gallery (CRM items) → Contact (reCAPTCHA), no violation', async ({ page }) => {
  test.setTimeout(180_000);
  const violations = await watchCspViolations(page);
  const scripts = await routeRecaptcha(page);
  await fakeCrm.setGallery({
    status: 200,
    body: {
      data: [
        {
          _id: 'd1',
          title: 'Kitchen ceiling',
          category: 'Water Damage',
          description: 'Ceiling re-boarded after a leak.',
          tags: [],
          mimeType: 'image/webp',
          imageUrl: '/gallery/samples/kitchen-ceiling-sample.webp',
        },
      ],
    },
  });
  await page.goto(`${base}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Gallery' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Gallery/, { timeout: 60_000 });
  await expect(page.getByText('Kitchen ceiling', { exact: true })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'Contact' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us', { timeout: 60_000 });
  await page.getByRole('form', { name: 'Send us a message' }).getByLabel(/^Name/).fill('Morag Visitor');
  await expect.poll(() => scripts.requested.length, { timeout: 30_000 }).toBe(1);
  expect(await violations.all()).toEqual([]);
});
