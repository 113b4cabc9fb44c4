import { expect, test } from './support/test';
import { galleryTile } from './support/gallery';
import config from '../../playwright.config';
import { fakeCrm } from './support/fake-crm';

// Headless Chromium hides scrollbars by default; show them so the layout-jump check means something.
test.use({ launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--hide-scrollbars'] } });

const items = Array.from({ length: 6 }, (_, position) => ({
  _id: `k${position}`,
  title: position === 0 ? 'Kitchen ceiling' : `Job ${position}`,
  category: 'Water Damage',
  imageUrl: '/gallery/samples/kitchen-ceiling-sample.webp',
}));
const tile = galleryTile;
const viewer = (page: import('@playwright/test').Page) => page.getByRole('dialog');
async function openGallery(page: import('@playwright/test').Page) {
  await fakeCrm.setGallery({ status: 200, body: { data: items } });
  await page.goto('/gallery');
  await expect(tile(page, 'Kitchen ceiling')).toBeVisible();
}

test.beforeEach(async () => {
  await fakeCrm.reset();
});

test('the page does not scroll under the open viewer and nothing moves when its scrollbar goes', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 500 });
  await openGallery(page);
  await tile(page, 'Kitchen ceiling').scrollIntoViewIfNeeded();
  // The page really scrolls, with a classic (space-taking) scrollbar.
  expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
  expect(await page.evaluate(() => window.innerWidth - document.documentElement.clientWidth)).toBeGreaterThan(0);
  const widthBefore = await page.evaluate(() => document.querySelector('main')?.getBoundingClientRect().width);
  const tileBefore = await tile(page, 'Kitchen ceiling').boundingBox();
  await tile(page, 'Kitchen ceiling').click();
  await expect(viewer(page)).toBeVisible();
  // The lock is set and lifted by the viewer's effect, after the frame that shows or hides it.
  const overflow = () => page.evaluate(() => getComputedStyle(document.documentElement).overflow);
  await expect.poll(overflow).toBe('hidden');
  expect(await page.evaluate(() => document.querySelector('main')?.getBoundingClientRect().width)).toBe(widthBefore);
  expect(await tile(page, 'Kitchen ceiling').boundingBox()).toEqual(tileBefore);
  const scrolled = await page.evaluate(() => window.scrollY);
  // The input as the page gets it, and two frames drawn after the last of it: a scroll the wheel or the
  // key started would have moved the page by then (no later event marks a scroll that did not happen).
  await page.evaluate(() => {
    const page = window as unknown as { __input: string[] };
    page.__input = [];
    for (const type of ['wheel', 'keydown'])
      addEventListener(type, () => requestAnimationFrame(() => requestAnimationFrame(() => page.__input.push(type))), {
        capture: true,
        passive: true,
      });
  });
  await page.mouse.wheel(0, 600);
  await page.keyboard.press('PageDown');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __input: string[] }).__input))
    .toEqual(expect.arrayContaining(['wheel', 'keydown']));
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  await expect.poll(overflow).not.toBe('hidden');
});
