import { expect, test, waitingForHydration, type APIRequestContext, type Browser, type BrowserContext, type Page } from './support/test';
import { exifOf } from '../../scripts/support/gallery-phone-photo';
import { fakeCrm } from './support/fake-crm';
import { fakeCrmUrl } from './test-env';
import { parseLinkHeader } from '../support/link-header';

// Real phone photos behind the CRM (4032x3024 JPEG, about 5 MB, GPS in their EXIF): every image the
// gallery shows is the size it is shown at, and the optimiser that resizes them is not an
// open proxy.

const photos = Array.from({ length: 8 }, (_, index) => ({
  _id: `p${index + 1}`,
  title: `Survey photo ${index + 1}`,
  category: 'Water Damage',
  description: 'Taken on the surveyor’s phone.',
  tags: [],
  mimeType: 'image/jpeg',
  // Every path is the same photo; the names keep the URLs apart.
  ...(index % 2 === 0 ? { imageUrl: `/photos/survey-${index + 1}.jpg` } : { s3Key: `photos/survey-${index + 1}.jpg` }),
}));

const screens = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
  { name: 'laptop at 2x', viewport: { width: 1024, height: 700 }, deviceScaleFactor: 2, isMobile: false },
  { name: 'phone', viewport: { width: 375, height: 740 }, deviceScaleFactor: 3, isMobile: true },
] as const;

/** The width asked of the optimiser by an image URL the browser chose (`/_next/image?…&w=N`). */
function requestedWidth(currentSrc: string): number {
  const url = new URL(currentSrc);
  expect(url.pathname, currentSrc).toBe('/_next/image');
  return Number(url.searchParams.get('w'));
}

/**
 * A browser context with the screen's size, pixel density and touch. The screen is as wide as the
 * viewport, as on a phone: Chromium picks a Link header's image for `width=device-width` (the screen).
 */
const contextFor = (browser: Browser, screen: (typeof screens)[number]) =>
  browser.newContext({
    viewport: screen.viewport,
    screen: screen.viewport,
    deviceScaleFactor: screen.deviceScaleFactor,
    isMobile: screen.isMobile,
  });

async function openGallery(browser: Browser, screen: (typeof screens)[number]): Promise<Page> {
  const context = await contextFor(browser, screen);
  const page = waitingForHydration(await context.newPage());
  await page.goto('/gallery');
  await expect(page.getByTestId('gallery-grid')).toBeVisible();
  return page;
}

const firstPhotoUrl = `${fakeCrmUrl}/photos/survey-1.jpg`;
const listUrl = `${fakeCrmUrl}/api/gallery/public`;

/** The Link header GET /gallery sends ('' for none); the test build's server asks the CRM afresh for each request. */
async function galleryLinkHeader(request: APIRequestContext): Promise<string> {
  return (await request.get('/gallery')).headers()['link'] ?? '';
}

/** Opens /gallery in `context`, counting the optimiser's image requests, until the first tile's image has loaded. */
async function galleryWithFirstImageLoaded(context: BrowserContext) {
  const page = waitingForHydration(await context.newPage());
  const imageRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image' && request.url().includes('/_next/image')) imageRequests.push(request.url());
  });
  await page.goto('/gallery');
  const first = page.getByTestId('gallery-grid').getByRole('img').first();
  await expect
    .poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 30_000 })
    .toBe(true);
  return { page, imageRequests, first };
}

test.beforeEach(async () => {
  await fakeCrm.reset();
  await fakeCrm.setGallery({ status: 200, body: { data: photos } });
});

for (const screen of screens) {
  test(`${screen.name}: no tile asks for an image wider than twice its rendered width, and the viewer for none wider than twice the screen`, async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    const page = await openGallery(browser, screen);
    const tiles = page.getByTestId('gallery-grid').getByRole('img');
    await expect(tiles).toHaveCount(photos.length);
    // The images in view, loaded.
    const first = tiles.first();
    await expect
      .poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 30_000 })
      .toBe(true);
    const loaded = await tiles.evaluateAll((images) =>
      (images as HTMLImageElement[])
        .filter((image) => image.complete && image.naturalWidth > 0)
        .map((image) => ({
          currentSrc: image.currentSrc,
          renderedWidth: image.getBoundingClientRect().width,
          naturalWidth: image.naturalWidth,
        })),
    );
    expect(loaded.length).toBeGreaterThan(0);
    for (const image of loaded) {
      const devicePixels = image.renderedWidth * screen.deviceScaleFactor;
      expect(requestedWidth(image.currentSrc), image.currentSrc).toBeLessThanOrEqual(2 * devicePixels);
      expect(image.naturalWidth, image.currentSrc).toBeLessThanOrEqual(2 * devicePixels);
    }

    await page.getByTestId('gallery-grid').locator('button[data-gallery-item]').first().click();
    const viewerImage = page.getByRole('dialog').getByRole('img', { name: 'Survey photo 1' });
    await expect
      .poll(() => viewerImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 30_000 })
      .toBe(true);
    const viewer = await viewerImage.evaluate((image: HTMLImageElement) => ({
      currentSrc: image.currentSrc,
      naturalWidth: image.naturalWidth,
    }));
    const screenPixels = screen.viewport.width * screen.deviceScaleFactor;
    expect(requestedWidth(viewer.currentSrc)).toBeLessThanOrEqual(2 * screenPixels);
    expect(viewer.naturalWidth).toBeLessThanOrEqual(Math.min(2 * screenPixels, 2048));
    await page.context().close();
  });
}

test('what the optimiser sends is WebP with no EXIF at all (the GPS position stays at the CRM)', async ({ request }) => {
  const source = `${fakeCrmUrl}/photos/survey-1.jpg`;
  const response = await request.get(`/_next/image?url=${encodeURIComponent(source)}&w=640&q=75`, {
    headers: { Accept: 'image/webp,image/*' },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/webp');
  const body = await response.body();
  expect(body.length).toBeLessThan(200_000);
  expect(await exifOf(body)).toEqual({ exif: false, gps: false });
});

test('the optimiser refuses another origin, a width or quality outside its lists and a query string, with 4xx and without a fetch', async ({
  request,
}) => {
  const photo = `${fakeCrmUrl}/photos/never-fetched.jpg`;
  const refused = [
    `/_next/image?url=${encodeURIComponent('https://elsewhere.example.net/photo.jpg')}&w=640&q=75`,
    `/_next/image?url=${encodeURIComponent('http://127.0.0.1:1/photo.jpg')}&w=640&q=75`,
    `/_next/image?url=${encodeURIComponent(photo)}&w=500&q=75`,
    `/_next/image?url=${encodeURIComponent(photo)}&w=3840&q=75`,
    `/_next/image?url=${encodeURIComponent(photo)}&w=640&q=100`,
    `/_next/image?url=${encodeURIComponent(`${photo}?size=huge`)}&w=640&q=75`,
    `/_next/image?url=${encodeURIComponent('/api/gallery/image/samples%2Fslate-roof-sample.jpg')}&w=640&q=75`,
  ];
  for (const path of refused) {
    const response = await request.get(path);
    expect(response.status(), path).toBeGreaterThanOrEqual(400);
    expect(response.status(), path).toBeLessThan(500);
  }
  expect(await fakeCrm.mediaRequests()).not.toContain('/photos/never-fetched.jpg');
});

test('the list is asked for from the document’s head, once: the gallery’s fetch takes the preload', async ({ page }) => {
  const listRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url() === `${fakeCrmUrl}/api/gallery/public`) listRequests.push(request.resourceType());
  });
  await page.goto('/gallery');
  await expect(page.getByTestId('gallery-grid').getByRole('img')).toHaveCount(photos.length);
  // crossorigin="" is "anonymous": the credentials mode of the gallery's fetch, so the two match.
  const hints = await page.evaluate(() =>
    [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preconnect"], link[rel="preload"][as="fetch"]')].map((link) => ({
      rel: link.rel,
      href: link.href,
      crossOrigin: link.crossOrigin,
    })),
  );
  expect(hints).toEqual([
    { rel: 'preconnect', href: `${fakeCrmUrl}/`, crossOrigin: 'anonymous' },
    { rel: 'preload', href: `${fakeCrmUrl}/api/gallery/public`, crossOrigin: 'anonymous' },
  ]);
  const initiators = await page.evaluate(
    (url) => performance.getEntriesByName(url).map((entry) => (entry as PerformanceResourceTiming).initiatorType),
    `${fakeCrmUrl}/api/gallery/public`,
  );
  expect(initiators).toEqual(['link']);
  expect(listRequests).toHaveLength(1);
});

for (const screen of screens) {
  test(`${screen.name}: without the server’s header, the first tile’s image is started by the page’s inline script as soon as the list is known, and fetched once`, async ({
    browser,
  }) => {
    const context = await contextFor(browser, screen);
    // The CRM refuses the site's server (not the browser): the page comes without the header.
    await fakeCrm.setGallery({ status: 200, body: { data: photos }, serverStatus: 503 });
    const { page, imageRequests, first } = await galleryWithFirstImageLoaded(context);
    const shown = await first.evaluate((image: HTMLImageElement) => image.currentSrc);
    const preloaded = await page.evaluate(() => {
      const link = document.head.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"][imagesrcset]');
      return link ? { srcset: link.getAttribute('imagesrcset'), sizes: link.getAttribute('imagesizes') } : null;
    });
    expect(preloaded).toEqual({
      srcset: await first.getAttribute('srcset'),
      sizes: await first.getAttribute('sizes'),
    });
    const initiators = await page.evaluate(
      (url) => performance.getEntriesByName(url).map((entry) => (entry as PerformanceResourceTiming).initiatorType),
      shown,
    );
    expect(initiators).toEqual(['link']);
    expect(imageRequests.filter((url) => url === shown)).toHaveLength(1);
    await context.close();
  });
}

for (const screen of screens) {
  test(`${screen.name}: the page itself announces the first tile’s image (a Link header with the tile’s srcset and sizes), so it is fetched while the list is still on its way, and once`, async ({
    browser,
    request,
  }) => {
    const link = await galleryLinkHeader(request);
    expect(link).toContain(encodeURIComponent(firstPhotoUrl));
    // The browser's list now takes a second and a half; the server already has its copy.
    await fakeCrm.setGallery({ status: 200, body: { data: photos }, delayMs: 1500 });
    const context = await contextFor(browser, screen);
    const page = waitingForHydration(await context.newPage());
    const events: string[] = [];
    page.on('request', (sent) => {
      if (sent.resourceType() === 'image' && sent.url().includes('/_next/image')) events.push(`image ${sent.url()}`);
    });
    page.on('requestfinished', (done) => {
      if (done.url() === listUrl) events.push('list arrived');
    });
    const response = await page.goto('/gallery');
    expect(response?.headers()['link']).toBe(link);
    const first = page.getByTestId('gallery-grid').getByRole('img').first();
    await expect
      .poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 30_000 })
      .toBe(true);
    const { href, params } = parseLinkHeader(link);
    expect(params).toEqual({
      rel: 'preload',
      as: 'image',
      fetchpriority: 'high',
      imagesrcset: await first.getAttribute('srcset'),
      imagesizes: await first.getAttribute('sizes'),
    });
    // Its own URL, for a browser that ignores imagesrcset in a header, is a phone-sized copy, never the original.
    expect(requestedWidth(new URL(href, 'http://site.test').href)).toBe(828);
    const shown = await first.evaluate((image: HTMLImageElement) => image.currentSrc);
    expect(events.filter((event) => event === `image ${shown}`)).toHaveLength(1);
    expect(events.indexOf(`image ${shown}`)).toBeLessThan(events.indexOf('list arrived'));
    await context.close();
  });
}

test('no header when the CRM cannot give the list, nor for a client-side navigation’s request; the page is served all the same', async ({
  request,
}) => {
  expect(await galleryLinkHeader(request)).toContain(encodeURIComponent(firstPhotoUrl));
  const clientNavigation = await request.get('/gallery?_rsc=1', { headers: { rsc: '1', 'sec-fetch-dest': 'empty' } });
  expect(clientNavigation.headers()['link']).toBeUndefined();
  await fakeCrm.setGallery({ status: 503, body: { message: 'down' } });
  const page = await request.get('/gallery');
  expect(page.status()).toBe(200);
  expect(page.headers()['link']).toBeUndefined();
});

for (const screen of screens) {
  test(`${screen.name}: the first photo shows in the loading skeleton before the page’s JavaScript runs, and the tile then shows the same file, fetched once`, async ({
    browser,
  }) => {
    const context = await contextFor(browser, screen);
    // No JavaScript bundle arrives: only the inline script in the page runs.
    const blocked = await context.newPage();
    await blocked.route('**/_next/static/chunks/**', (route) => route.abort());
    await blocked.goto('/gallery');
    const early = blocked.locator('#gallery-first-frame img');
    await expect
      .poll(() => early.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 30_000 })
      .toBe(true);
    await expect(blocked.getByTestId('gallery-grid')).toHaveCount(0);
    const preloaded = await blocked.evaluate(() =>
      document.head.querySelector('link[rel="preload"][as="image"][imagesrcset]')?.getAttribute('imagesrcset'),
    );
    expect(await early.getAttribute('srcset')).toBe(preloaded);
    const earlySrc = await early.evaluate((image: HTMLImageElement) => image.currentSrc);
    expect(requestedWidth(earlySrc)).toBeGreaterThan(0);
    // The skeleton frame stops pulsing once it holds the photo (an element at half opacity is no LCP).
    expect(await blocked.locator('#gallery-first-frame').evaluate((frame) => getComputedStyle(frame).animationName)).toBe('none');
    await blocked.close();

    // With the page's JavaScript: the tile takes over with the same file, and nothing is fetched twice.
    const { page, imageRequests, first } = await galleryWithFirstImageLoaded(context);
    await expect(page.locator('#gallery-first-frame')).toHaveCount(0);
    const shown = await first.evaluate((image: HTMLImageElement) => image.currentSrc);
    expect(shown).toBe(earlySrc);
    expect(imageRequests.filter((url) => url === shown)).toHaveLength(1);
    expect(new Set(imageRequests.filter((url) => url.includes(encodeURIComponent('survey-1.jpg')))).size).toBe(1);
    await context.close();
  });
}

test('on a phone a video tile shows its still frame, resized, and fetches no video bytes', async ({ browser }) => {
  await fakeCrm.setGallery({
    status: 200,
    body: {
      data: [
        {
          _id: 'v1',
          title: 'Roof time-lapse',
          category: 'Storm Damage',
          description: 'Re-slating.',
          mimeType: 'video/mp4',
          s3Key: 'samples/roof-timelapse-sample.mp4',
          posterUrl: '/photos/roof-timelapse-frame.jpg',
        },
        {
          _id: 'v2',
          title: 'Gutter clip',
          category: 'Storm Damage',
          description: 'No still frame.',
          mimeType: 'video/mp4',
          s3Key: 'samples/roof-timelapse-sample.mp4',
        },
      ],
    },
  });
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = waitingForHydration(await context.newPage());
  const videoRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('.mp4')) videoRequests.push(request.url());
  });
  await page.goto('/gallery');
  const grid = page.getByTestId('gallery-grid');
  await expect(grid.locator('button[data-gallery-item]')).toHaveCount(2);
  await expect(grid.locator('video')).toHaveCount(0);
  const frame = grid.locator('[data-gallery-item="v1"] img');
  await expect
    .poll(() => frame.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), { timeout: 30_000 })
    .toBe(true);
  const shown = await frame.evaluate((image: HTMLImageElement) => ({
    currentSrc: image.currentSrc,
    renderedWidth: image.getBoundingClientRect().width,
    naturalWidth: image.naturalWidth,
  }));
  expect(shown.currentSrc).toContain(`url=${encodeURIComponent(`${fakeCrmUrl}/photos/roof-timelapse-frame.jpg`)}`);
  expect(shown.naturalWidth).toBeLessThanOrEqual(2 * 3 * shown.renderedWidth);
  // Both tiles still say what they are.
  await expect(grid.getByRole('button', { name: /Video.*Roof time-lapse/ })).toBeVisible();
  await expect(grid.getByRole('button', { name: /Video.*Gutter clip/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(videoRequests).toEqual([]);

  // Opened, the video plays in the viewer with the frame as its poster.
  await grid.locator('[data-gallery-item="v1"]').tap();
  const video = page.getByRole('dialog').locator('video');
  await expect(video).toHaveAttribute('poster', /\/_next\/image\?url=.*roof-timelapse-frame\.jpg&w=1080&q=75$/);
  await expect.poll(() => videoRequests.length).toBeGreaterThan(0);
  await context.close();
});
