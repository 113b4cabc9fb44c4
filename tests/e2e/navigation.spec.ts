import { expect, hydrated, test } from './support/test';
import { allRoutes as routes } from '../../scripts/support/routes';

const mainLinks = ['Home', 'About Us', 'Services', 'Gallery', 'Contact'];

test.describe('desktop navigation', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  for (const route of routes) {
    test(`on ${route.path} the current page's link alone is marked aria-current="page"`, async ({ page }) => {
      await page.goto(route.path);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link')).toHaveText(mainLinks);
      // The desktop list and the (hidden) mobile menu both carry the mark on the same link.
      const current = nav.locator('a[aria-current="page"]');
      if (route.navLabel) {
        await expect(current).toHaveText([route.navLabel, route.navLabel]);
        await expect(nav.locator('a[aria-current="page"]:visible')).toHaveText(route.navLabel);
        await expect(nav.getByRole('link', { name: route.navLabel, exact: true })).toHaveClass(/decoration-accent-500/);
      } else {
        await expect(current).toHaveCount(0);
      }
    });
  }

  test('the bar is 192 px high, sticky, and the logo links home', async ({ page }) => {
    await page.goto('/about');
    const bar = page.getByTestId('nav-bar');
    expect((await bar.boundingBox())?.height).toBe(192);
    await page.mouse.wheel(0, 1500);
    await expect.poll(async () => (await page.getByRole('banner').boundingBox())?.y).toBe(0);
    await page.getByRole('link', { name: /home$/ }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the menu toggle is hidden and the five links are visible', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    for (const label of mainLinks) {
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true })).toBeVisible();
    }
  });

  test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
    await page.goto('/services');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });
});

test.describe('mobile navigation', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the bar is 128 px high and the desktop links are hidden', async ({ page }) => {
    await page.goto('/');
    expect((await page.getByTestId('nav-bar').boundingBox())?.height).toBe(128);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About Us' })).toBeHidden();
  });

  test('the toggle opens the five links, and choosing one navigates and closes the menu', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link')).toHaveText(mainLinks);
    await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');

    await menu.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Services');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    await expect(menu.getByRole('link', { name: 'Services', includeHidden: true })).toHaveAttribute('aria-current', 'page');
  });

  test('the toggle closes the menu again, and Escape closes it and returns focus to the toggle', async ({ page }) => {
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: /menu/ });
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await toggle.click();
    await expect(menu).toBeVisible();
    await toggle.click();
    await expect(menu).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('going back in history closes an open menu', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: /menu/ });
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await toggle.click();
    await menu.getByRole('link', { name: 'Gallery' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gallery');
    await toggle.click();
    await expect(menu).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Expert Insurance Repairs');
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('mobile navigation without JavaScript', () => {
  test.use({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });

  test('the toggle opens the menu, Escape closes it, and its links lead to the pages', async ({ page }) => {
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link')).toHaveText(mainLinks);
    // Right below the bar, as wide as it.
    const bar = (await page.getByTestId('nav-bar').boundingBox())!;
    expect(await menu.boundingBox()).toMatchObject({ x: bar.x, y: bar.y + bar.height, width: bar.width });
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await toggle.click();
    await menu.getByRole('link', { name: 'Contact', exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    await expect(menu).toBeHidden();
  });
});

test('a menu opened before the page has hydrated stays open, and React takes it over', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    const page = await context.newPage();
    let releaseChunks = () => {};
    const chunksHeld = new Promise<void>((resolve) => (releaseChunks = resolve));
    await page.route('**/_next/static/chunks/**', async (route) => {
      await chunksHeld;
      await route.continue();
    });
    // Not `load`: on a busy machine the held chunks can be asked for before it, and it would never come.
    await page.goto('/about', { waitUntil: 'domcontentloaded' });
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const menu = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await toggle.click();
    await expect(menu).toBeVisible();

    releaseChunks();
    await hydrated(page);
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await menu.getByRole('link', { name: 'Services' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Services');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  } finally {
    await context.close();
  }
});
