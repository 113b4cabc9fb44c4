import { expect, test, waitingForHydration, type Page } from './support/test';
import { crmKitchenCeiling, crmSlateRoof, galleryTile } from './support/gallery';
import { axe } from './support/axe';
import { fakeCrm } from './support/fake-crm';
import { fakeCrmUrl } from './test-env';

// The gallery's messages, verbatim: a visitor must read exactly these.
const LOAD_FAILED = 'Failed to load gallery photos. Please try again later.';
const NO_MEDIA_YET = 'No media available in the gallery yet.';

// Kept: five items over three categories, in this order (the viewer runs across all of them).
const kept = [
  { ...crmKitchenCeiling, tags: ['ceiling', 'plaster'] },
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
  {
    _id: 'f1',
    title: 'Survey record',
    category: 'Fire & Smoke',
    description: 'Photos not uploaded yet.',
    tags: [],
    mimeType: 'image/jpeg',
    filename: 'survey.jpg',
  },
];
// Discarded: no _id, no title, none of imageUrl/s3Key/filename.
const discarded = [
  { title: 'No id', category: 'Ghost', imageUrl: '/gallery/samples/kitchen-ceiling-sample.webp' },
  { _id: 'd2', category: 'Ghost', imageUrl: '/gallery/samples/kitchen-ceiling-sample.webp' },
  { _id: 'd3', title: 'Nothing to show', category: 'Ghost' },
];
const mixed = [kept[0], discarded[0], kept[1], discarded[1], kept[2], kept[3], discarded[2], kept[4]];

const filters = (page: Page) => page.getByRole('group', { name: 'Filter by category' }).getByRole('button');
const tile = galleryTile;
const viewer = (page: Page) => page.getByRole('dialog');
const counter = (page: Page) => page.getByTestId('viewer-counter');

async function openGallery(page: Page, body: unknown = { data: mixed }) {
  await fakeCrm.setGallery({ status: 200, body });
  await page.goto('/gallery');
  await expect(filters(page).first()).toBeVisible();
}

test.beforeEach(async () => {
  await fakeCrm.reset();
});

test('shows an announced loading indicator while a slow response is on its way', async ({ page }) => {
  await fakeCrm.setGallery({ status: 200, body: { data: mixed } });
  // The list is held until the indicator has been seen: a fixed delay raced the wait for hydration.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/gallery/public', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/gallery');
  await expect(page.getByRole('status')).toHaveText('Loading gallery…');
  release();
  await expect(filters(page)).toHaveText(['Water Damage', 'Storm Damage', 'Fire & Smoke']);
  await expect(page.getByRole('status')).toHaveCount(0);
});

for (const [shape, body] of [
  ['an object with a data array', { data: mixed }],
  ['a bare array', mixed],
] as const) {
  test(`reads ${shape}, discards incomplete items and selects the first category`, async ({ page }) => {
    await openGallery(page, body);
    await expect(filters(page)).toHaveText(['Water Damage', 'Storm Damage', 'Fire & Smoke']);
    await expect(filters(page).nth(0)).toHaveAttribute('aria-pressed', 'true');
    await expect(filters(page).nth(1)).toHaveAttribute('aria-pressed', 'false');
    const grid = page.getByTestId('gallery-grid');
    await expect(grid.getByRole('listitem')).toHaveCount(2);
    await expect(grid.getByRole('listitem').nth(0)).toContainText('Kitchen ceiling');
    await expect(grid.getByRole('listitem').nth(0)).toContainText('Water Damage');
    await expect(page.getByText('No id')).toHaveCount(0);
    await expect(page.getByText('Nothing to show')).toHaveCount(0);
  });
}

test('images follow the media URL rule, load lazily after the first, with alt text from the title, in fixed frames', async ({ page }) => {
  // Hold the images back so the frames are measured before and after they arrive.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${fakeCrmUrl}/**`, async (route) => {
    if (route.request().resourceType() === 'image') await held;
    await route.continue();
  });
  await openGallery(page);
  const kitchen = page.getByRole('img', { name: 'Kitchen ceiling' });
  const hallway = page.getByRole('img', { name: 'Hallway floor' });
  await expect(kitchen).toHaveAttribute('src', `${fakeCrmUrl}/gallery/samples/kitchen-ceiling-sample.webp`);
  await expect(hallway).toHaveAttribute('src', `${fakeCrmUrl}/api/gallery/image/samples%2Fhallway-floor-sample.webp`);
  // The first image is in view on every screen: it loads at once and first; the rest load lazily.
  await expect(kitchen).toHaveAttribute('loading', 'eager');
  await expect(kitchen).toHaveAttribute('fetchpriority', 'high');
  await expect(hallway).toHaveAttribute('loading', 'lazy');

  const before = await tile(page, 'Kitchen ceiling').boundingBox();
  const frame = await kitchen.boundingBox();
  expect(frame && Math.abs(frame.height - (frame.width * 3) / 4)).toBeLessThan(1);
  release();
  await expect.poll(() => kitchen.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  await expect.poll(() => hallway.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  expect(await tile(page, 'Kitchen ceiling').boundingBox()).toEqual(before);
});

test('category buttons filter the grid and expose their selected state', async ({ page }) => {
  await openGallery(page);
  await filters(page).filter({ hasText: 'Storm Damage' }).click();
  await expect(filters(page).nth(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(filters(page).nth(0)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('gallery-grid').getByRole('listitem')).toHaveCount(2);
  await expect(tile(page, 'Slate roof')).toBeVisible();
  await expect(tile(page, 'Kitchen ceiling')).toHaveCount(0);

  await filters(page).filter({ hasText: 'Fire & Smoke' }).click();
  await expect(tile(page, 'Survey record')).toContainText('No Media');
  await expect(tile(page, 'Survey record')).toContainText('Fire & Smoke');
});

test('a video tile plays muted on hover and on keyboard focus, and pauses on leave', async ({ page }) => {
  await openGallery(page);
  await filters(page).filter({ hasText: 'Storm Damage' }).click();
  const card = tile(page, 'Roof time-lapse');
  const video = card.locator('video');
  await expect(video).toHaveAttribute('src', `${fakeCrmUrl}/api/gallery/image/samples%2Froof-timelapse-sample.mp4`);
  const paused = () => video.evaluate((element: HTMLVideoElement) => element.paused);
  expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
  expect(await paused()).toBe(true);

  await card.hover();
  await expect.poll(paused).toBe(false);
  await page.mouse.move(0, 0);
  await expect.poll(paused).toBe(true);

  await tile(page, 'Slate roof').focus();
  await page.keyboard.press('Tab');
  await expect(card).toBeFocused();
  await expect.poll(paused).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect.poll(paused).toBe(true);
});

test('the viewer shows every field, counts from 1, wraps both ways and runs across categories', async ({ page }) => {
  await openGallery(page);
  await tile(page, 'Kitchen ceiling').click();
  const dialog = viewer(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Kitchen ceiling' })).toBeVisible();
  await expect(dialog).toContainText('Water Damage');
  await expect(dialog).toContainText('Ceiling re-boarded after a leak.');
  await expect(dialog.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['ceiling', 'plaster']);
  await expect(counter(page)).toHaveText('1 of 5');
  await expect(dialog.getByRole('img', { name: 'Kitchen ceiling' })).toBeVisible();

  const next = dialog.getByRole('button', { name: 'Next item' });
  const previous = dialog.getByRole('button', { name: 'Previous item' });
  await next.click();
  await expect(counter(page)).toHaveText('2 of 5');
  await expect(dialog.getByRole('heading')).toHaveText('Hallway floor');
  await next.click();
  // Across categories: the grid shows Water Damage, the viewer moves on to Storm Damage.
  await expect(counter(page)).toHaveText('3 of 5');
  await expect(dialog).toContainText('Storm Damage');
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('4 of 5');
  const video = dialog.locator('video');
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('autoplay', '');
  await expect(video).toHaveAttribute('src', `${fakeCrmUrl}/api/gallery/image/samples%2Froof-timelapse-sample.mp4`);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('5 of 5');
  await expect(dialog).toContainText('No Media');
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('1 of 5');
  await page.keyboard.press('ArrowLeft');
  await expect(counter(page)).toHaveText('5 of 5');
  await previous.click();
  await expect(counter(page)).toHaveText('4 of 5');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(tile(page, 'Kitchen ceiling')).toBeFocused();
});

test('a click on the backdrop closes the viewer and focus returns to the item', async ({ page }) => {
  await openGallery(page);
  await tile(page, 'Hallway floor').click();
  await expect(viewer(page)).toBeVisible();
  // Clicks on the media or the caption do not close it.
  await viewer(page).getByRole('img', { name: 'Hallway floor' }).click();
  await viewer(page).getByRole('heading', { name: 'Hallway floor' }).click();
  await expect(viewer(page)).toBeVisible();
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.mouse.click(size.width / 2, 40);
  await expect(viewer(page)).toBeHidden();
  await expect(tile(page, 'Hallway floor')).toBeFocused();
});

test('the close button closes; keyboard alone opens the viewer and keeps Tab inside it', async ({ page }) => {
  await openGallery(page);
  await tile(page, 'Kitchen ceiling').focus();
  await page.keyboard.press('Enter');
  const close = viewer(page).getByRole('button', { name: 'Close viewer' });
  await expect(close).toBeFocused();
  for (let step = 0; step < 4; step += 1) await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
  await close.focus();
  await page.keyboard.press('Enter');
  await expect(viewer(page)).toBeHidden();
  await expect(tile(page, 'Kitchen ceiling')).toBeFocused();
});

test('one item: no previous or next buttons', async ({ page }) => {
  await openGallery(page, [kept[0]]);
  await tile(page, 'Kitchen ceiling').click();
  await expect(counter(page)).toHaveText('1 of 1');
  await expect(viewer(page).getByRole('button', { name: 'Next item' })).toHaveCount(0);
  await expect(viewer(page).getByRole('button', { name: 'Previous item' })).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('1 of 1');
});

test('the viewer preloads the neighbouring images, including ones in other categories', async ({ page }) => {
  await openGallery(page);
  const slate = '/api/gallery/image/samples%2Fslate-roof-sample.jpg';
  expect(await fakeCrm.mediaRequests()).not.toContain(slate);
  await tile(page, 'Hallway floor').click();
  await expect(counter(page)).toHaveText('2 of 5');
  await expect.poll(() => fakeCrm.mediaRequests()).toContain(slate);
});

test('swiping left and right on a touch screen moves through the items', async ({ browser }) => {
  const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 740 } });
  const page = waitingForHydration(await context.newPage());
  await openGallery(page);
  await tile(page, 'Kitchen ceiling').tap();
  await expect(counter(page)).toHaveText('1 of 5');
  // Measured once the image has loaded: before, its box can be a sliver, and a swipe from there lands on
  // the backdrop, which closes the viewer.
  const image = viewer(page).getByRole('img', { name: 'Kitchen ceiling' });
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  const box = await image.boundingBox();
  if (!box) throw new Error('no image box');
  const cdp = await context.newCDPSession(page);
  const swipe = async (fromX: number, toX: number) => {
    const y = box.y + box.height / 2;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] });
    for (let step = 1; step <= 5; step += 1) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: fromX + ((toX - fromX) * step) / 5, y }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  await swipe(box.x + box.width * 0.8, box.x + box.width * 0.2);
  await expect(counter(page)).toHaveText('2 of 5');
  await swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
  await expect(counter(page)).toHaveText('1 of 5');
  await swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
  await expect(counter(page)).toHaveText('5 of 5');
  await context.close();
});

const columns: [number, number][] = [
  [375, 1],
  [700, 2],
  [1000, 3],
  [1400, 4],
];
for (const [width, count] of columns) {
  test(`the grid has ${count} column${count > 1 ? 's' : ''} at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const many = Array.from({ length: 8 }, (_, position) => ({
      _id: `m${position}`,
      title: `Job ${position + 1}`,
      category: 'Roofing',
      s3Key: `samples/slate-roof-sample.jpg`,
    }));
    await openGallery(page, many);
    const tops = await page
      .getByTestId('gallery-grid')
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(tops.filter((top) => top === tops[0])).toHaveLength(count);
  });
}

test("the empty gallery says 'No media available in the gallery yet.'", async ({ page }) => {
  await fakeCrm.setGallery({ status: 200, body: { data: [] } });
  await page.goto('/gallery');
  await expect(page.getByText(NO_MEDIA_YET)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Filter by category' })).toHaveCount(0);
});

test('a list of only incomplete items counts as empty', async ({ page }) => {
  await fakeCrm.setGallery({ status: 200, body: discarded });
  await page.goto('/gallery');
  await expect(page.getByText(NO_MEDIA_YET)).toBeVisible();
});

test("HTTP 500 shows the error banner, clears the content and logs 'Failed to fetch photos'", async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await fakeCrm.setGallery({ status: 500, body: { message: 'CRM down' } });
  await page.goto('/gallery');
  await expect(page.getByRole('alert').filter({ hasText: LOAD_FAILED })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Filter by category' })).toHaveCount(0);
  await expect(page.getByTestId('gallery-grid')).toHaveCount(0);
  expect(consoleErrors.some((text) => text.includes('Failed to fetch photos'))).toBe(true);
  await expect
    .poll(async () => (await fakeCrm.errorLogs()).filter((entry) => entry.statusCode === 500 && entry.path === '/api/gallery/public'))
    .toEqual([
      expect.objectContaining({ level: 'error', category: 'server', method: 'GET', application: 'homecare-web', source: 'frontend' }),
    ]);

  // Try again after the CRM recovers.
  await fakeCrm.setGallery({ status: 200, body: { data: mixed } });
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(filters(page)).toHaveText(['Water Damage', 'Storm Damage', 'Fire & Smoke']);
});

test('a body of neither shape is a load failure too', async ({ page }) => {
  await fakeCrm.setGallery({ status: 200, body: { photos: kept } });
  await page.goto('/gallery');
  await expect(page.getByRole('alert').filter({ hasText: LOAD_FAILED })).toBeVisible();
});

test('no axe violations on the gallery, or with the viewer open on an image and on a video', async ({ page }) => {
  await openGallery(page);
  expect((await axe(page).analyze()).violations).toEqual([]);
  await tile(page, 'Kitchen ceiling').click();
  await expect(viewer(page).getByRole('img', { name: 'Kitchen ceiling' })).toBeVisible();
  expect((await axe(page).analyze()).violations).toEqual([]);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(counter(page)).toHaveText('4 of 5');
  expect((await axe(page).analyze()).violations).toEqual([]);
});

test('the page has its own title and canonical URL', async ({ page }) => {
  await openGallery(page);
  await expect(page).toHaveTitle(/Gallery of Our Repair Work/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/gallery$/);
});
