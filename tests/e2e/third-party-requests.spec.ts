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
    // Down the page half a screen at a time. A page that kept growing as it is scrolled would never end:
    // the steps are counted, and a frame that never comes (a starved renderer) is waited for a second at most.
    const scrolled = await page.evaluate(async () => {
      let steps = 0;
      let stalled = 0;
      for (let y = 0; y < document.body.scrollHeight && steps < 200; y += window.innerHeight / 2) {
        window.scrollTo(0, y);
        steps += 1;
        // Two frames at each place: whether a lazy image or video is near the viewport is checked as a frame is drawn.
        const drawn = new Promise<boolean>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
        if (!(await Promise.race([drawn, new Promise<boolean>((late) => setTimeout(() => late(false), 1_000))]))) stalled += 1;
      }
      return { steps, stalled, height: document.body.scrollHeight };
    });
    expect(scrolled.steps, `the page grew as it was scrolled: ${JSON.stringify(scrolled)}`).toBeLessThan(200);
    await page.waitForLoadState('networkidle');
    const web = requested.filter((url) => /^https?:/.test(url));
    expect(web.length).toBeGreaterThan(1);
    expect(web.filter((url) => !LOCAL_HOSTS.has(new URL(url).hostname))).toEqual([]);
  });
}
