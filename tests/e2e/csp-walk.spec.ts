import { expect, test, type Page } from './support/test';
import { crmKitchenCeiling, crmSlateRoof, galleryTile } from './support/gallery';
import { accreditations } from '@/content/accreditations';
import { watchCspViolations } from './support/csp-violations';
import { routeRecaptcha } from './support/fake-recaptcha';
import { allRoutes, routes } from '../../scripts/support/routes';
import { fakeCrm } from './support/fake-crm';

// The site with its Content-Security-Policy on: walking every route, opening every dialog, using the
// gallery and sending the form must not make the browser block anything.

const galleryItems = [
  crmKitchenCeiling,
  {
    _id: 'w2',
    title: 'Hallway floor',
    category: 'Water Damage',
    description: 'Boards lifted and relaid.',
    mimeType: 'image/webp',
    s3Key: 'samples/hallway-floor-sample.webp',
  },
  crmSlateRoof,
  {
    _id: 's2',
    title: 'Roof time-lapse',
    category: 'Storm Damage',
    description: 'Re-slating in four seconds.',
    tags: ['video'],
    mimeType: 'video/mp4',
    s3Key: 'samples/roof-timelapse-sample.mp4',
  },
];

async function scrollThrough(page: Page) {
  // Brings every lazy image and near-viewport video into play.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      // Two frames at each place: whether a lazy image or video is near the viewport is checked as a frame is drawn.
      await new Promise<void>((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn())));
    }
    window.scrollTo(0, 0);
  });
}

test.beforeEach(async () => {
  await fakeCrm.reset();
  await fakeCrm.setGallery({ status: 200, body: { data: galleryItems } });
});

// One test a route: a walk of every route in one test came within a second of its time limit on a slow machine.
for (const route of [...allRoutes.map((entry) => entry.path), '/no-such-page']) {
  test(`${route} loads, hydrates and scrolls with no CSP violation`, async ({ page }) => {
    const violations = await watchCspViolations(page);
    await page.goto(route, { waitUntil: 'networkidle' });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await scrollThrough(page);
    expect(await violations.all(), route).toEqual([]);
  });
}

test('client-side navigation by the header links, with no CSP violation', async ({ page }) => {
  const violations = await watchCspViolations(page);
  // The header links navigate without a full load (React Server Components payloads over fetch).
  await page.goto('/');
  for (const route of routes.filter((entry) => entry.navLabel !== null)) {
    await page.getByRole('banner').getByRole('link', { name: route.navLabel!, exact: true }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1);
  }
  expect(await violations.all()).toEqual([]);
});

test('the footer badge dialog, every accreditation dialog and the mobile menu open with no CSP violation', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await page.goto('/');
  await page
    .getByRole('contentinfo')
    .getByRole('button', { name: /Safe Contractor/ })
    .click();
  const notice = page.getByRole('dialog', { name: 'Accreditation Notice' });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('img')).toBeVisible();
  await notice.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toBeHidden();

  await page.goto('/about');
  for (const accreditation of accreditations) {
    await page.getByTestId('accreditation-grid').getByRole('button', { name: accreditation.name, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: accreditation.name });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('img', { name: `${accreditation.name} logo` })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/services');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('button', { name: 'Close menu' }).click();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  expect(await violations.all()).toEqual([]);
});

test('the gallery: filters, the viewer, next and previous, images and video, with no CSP violation', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await page.goto('/gallery');
  const filters = page.getByRole('group', { name: 'Filter by category' }).getByRole('button');
  await expect(filters).toHaveText(['Water Damage', 'Storm Damage']);
  await filters.nth(1).click();
  await expect(filters.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await filters.nth(0).click();
  await galleryTile(page, 'Kitchen ceiling').click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('img', { name: 'Kitchen ceiling' })).toBeVisible();
  await expect
    .poll(() => viewer.getByRole('img', { name: 'Kitchen ceiling' }).evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  for (const title of ['Hallway floor', 'Slate roof', 'Roof time-lapse']) {
    await viewer.getByRole('button', { name: 'Next item' }).click();
    await expect(viewer.getByRole('heading')).toHaveText(title);
  }
  await expect.poll(() => viewer.locator('video').evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThan(0);
  await viewer.getByRole('button', { name: 'Previous item' }).click();
  await expect(viewer.getByRole('heading')).toHaveText('Slate roof');
  await viewer.getByRole('button', { name: 'Close viewer' }).click();
  await expect(viewer).toBeHidden();
  expect(await violations.all()).toEqual([]);
});

test('the contact form loads reCAPTCHA, fills in and sends with no CSP violation', async ({ page }) => {
  const violations = await watchCspViolations(page);
  // The test build has a reCAPTCHA site key: the form loads Google's script (answered by a fake at
  // Google's URL) when the visitor engages it, so the page's policy must let that script in.
  const scripts = await routeRecaptcha(page);
  await page.goto('/contact');
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel(/^Name/).fill('Alex Example');
  await expect.poll(() => scripts.requested.length).toBe(1);
  await form.getByLabel(/^Email/).fill('alex@example.com');
  await form.getByLabel(/^Subject/).fill(`Water damage to a ceiling ${Date.now()}`);
  await form.getByLabel(/^Message/).fill('A pipe burst above the kitchen. Could someone come and look this week?');
  const sent = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form.getByRole('button', { name: 'Send message' }).click();
  expect((await sent).status()).toBe(201);
  await expect(form.getByRole('status').locator('p').first()).toHaveText('Your message has been sent successfully!');
  await expect(form.getByTestId('enquiry-reference')).toContainText(/HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}/);
  expect(await page.evaluate(() => (window as unknown as { __recaptcha: { executed: unknown[] } }).__recaptcha.executed)).toHaveLength(1);
  expect(await violations.all()).toEqual([]);
});

test('the check itself works: an injected inline script is blocked and reported', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await page.goto('/');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
  });
  await expect.poll(async () => (await violations.all()).length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
});
