import { expect, test } from './support/test';
import { routes } from '../../scripts/support/routes';
import { fakeCrm } from './support/fake-crm';

// No page load may reach another host: fonts are self-hosted, reCAPTCHA waits for the form, and the
// CRM in the tests is the local fake. Anything not on 127.0.0.1/localhost is a third party.
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

test.beforeEach(async () => {
  await fakeCrm.reset();
  await fakeCrm.setGallery({
    status: 200,
    body: {
      data: [
        { _id: 'w2', title: 'Hallway floor', category: 'Water Damage', mimeType: 'image/webp', s3Key: 'samples/hallway-floor-sample.webp' },
      ],
    },
  });
});

for (const route of routes) {
  test(`${route.path} loads without a request to any other host`, async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(route.path, { waitUntil: 'networkidle' });
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
        window.scrollTo(0, y);
        // Two frames at each place: whether a lazy image or video is near the viewport is checked as a frame is drawn.
        await new Promise<void>((drawn) => requestAnimationFrame(() => requestAnimationFrame(() => drawn())));
      }
    });
    await page.waitForLoadState('networkidle');
    const web = requested.filter((url) => /^https?:/.test(url));
    expect(web.length).toBeGreaterThan(1);
    expect(web.filter((url) => !LOCAL_HOSTS.has(new URL(url).hostname))).toEqual([]);
  });
}
