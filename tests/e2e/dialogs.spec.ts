import { expect, test, type Locator, type Page } from './support/test';
import { accreditations } from '@/content/accreditations';

/** Tab and Shift+Tab many times round the open dialog: focus never leaves it. */
async function expectFocusTrapped(page: Page, dialog: Locator) {
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
}

async function expectBackgroundInert(page: Page) {
  // A modal <dialog> makes the rest of the page inert: a pointer over the header's logo hits the dialog's backdrop.
  const result = await page.evaluate(() => {
    const dialog = document.querySelector('dialog[open]');
    const logo = document.querySelector('header a');
    if (!dialog || !logo) return { modal: false, hitsBackground: true };
    const box = logo.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { modal: dialog.matches(':modal'), hitsBackground: hit !== null && !dialog.contains(hit) };
  });
  expect(result).toEqual({ modal: true, hitsBackground: false });
}

test.describe('footer accreditation badge', () => {
  test('opens the accreditation notice by mouse; the X button closes it and focus returns to the badge', async ({ page }) => {
    await page.goto('/');
    const badge = page.getByRole('contentinfo').getByRole('button', { name: /Safe Contractor/ });
    await badge.click();
    const dialog = page.getByRole('dialog', { name: 'Accreditation Notice' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'Safe Contractor badge' })).toBeVisible();
    await expect(dialog).toContainText("audits contractors' health and safety policies, procedures and documentation");
    await expect(dialog).toContainText('reduces the need for multiple customer questionnaires');
    const visit = dialog.getByRole('link', { name: /Visit Website/ });
    await expect(visit).toHaveAttribute('target', '_blank');
    await expect(visit).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(visit).toHaveAttribute('href', 'https://www.safecontractor.com/');
    expect(await page.evaluate(() => document.documentElement.classList.contains('scroll-locked'))).toBe(true);
    await expectBackgroundInert(page);

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(badge).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.classList.contains('scroll-locked'))).toBe(false);
  });

  test('by keyboard: focus moves in, Tab stays in, Escape closes and focus returns to the badge', async ({ page }) => {
    await page.goto('/services');
    const badge = page.getByRole('contentinfo').getByRole('button', { name: /Safe Contractor/ });
    await badge.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Accreditation Notice' });
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await expectFocusTrapped(page, dialog);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(badge).toBeFocused();

    await page.keyboard.press('Space');
    await expect(dialog).toBeVisible();
    const close = dialog.getByRole('button', { name: 'Close' });
    await close.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(badge).toBeFocused();
  });

  test('a click on the backdrop closes it', async ({ page }) => {
    await page.goto('/');
    await page
      .getByRole('contentinfo')
      .getByRole('button', { name: /Safe Contractor/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Accreditation Notice' });
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
  });
});

test.describe('about page accreditation dialogs', () => {
  for (const accreditation of accreditations) {
    test(`${accreditation.name}: by mouse, with name, logo, description${accreditation.website ? ' and Visit Website' : ''}`, async ({
      page,
    }) => {
      await page.goto('/about');
      const opener = page.getByTestId('accreditation-grid').getByRole('button', { name: accreditation.name, exact: true });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: accreditation.name });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('heading', { name: accreditation.name })).toBeVisible();
      await expect(dialog.getByRole('img', { name: `${accreditation.name} logo` })).toHaveAttribute('src', accreditation.logo);
      await expect(dialog).toContainText(accreditation.description);
      const visit = dialog.getByRole('link', { name: /Visit Website/ });
      if (accreditation.website) {
        await expect(visit).toHaveAttribute('href', accreditation.website);
        await expect(visit).toHaveAttribute('target', '_blank');
        await expect(visit).toHaveAttribute('rel', 'noopener noreferrer');
      } else {
        await expect(visit).toHaveCount(0);
      }
      await expectBackgroundInert(page);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    });

    test(`${accreditation.name}: by keyboard, focus trapped, Escape closes, focus returns`, async ({ page }) => {
      await page.goto('/about');
      const opener = page.getByTestId('accreditation-grid').getByRole('button', { name: accreditation.name, exact: true });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: accreditation.name });
      await expect(dialog).toBeVisible();
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      await expectFocusTrapped(page, dialog);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    });
  }
});
