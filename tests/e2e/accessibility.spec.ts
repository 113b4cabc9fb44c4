import { expect, test, type Page } from './support/test';
import { axe } from './support/axe';
import { accreditations } from '@/content/accreditations';
import { allRoutes as routes } from '../../scripts/support/routes';

async function expectNoViolations(page: Page) {
  const results = await axe(page).analyze();
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  expect(summary).toEqual([]);
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
]) {
  test.describe(`axe on every route (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    for (const route of [...routes.map((r) => r.path), '/no-such-page']) {
      test(route, async ({ page }) => {
        await page.goto(route);
        await expectNoViolations(page);
      });
    }
  });
}

test('axe with the mobile menu open', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible();
  await expectNoViolations(page);
});

test('axe with the footer accreditation notice open', async ({ page }) => {
  await page.goto('/');
  await page
    .getByRole('contentinfo')
    .getByRole('button', { name: /Safe Contractor/ })
    .click();
  await expect(page.getByRole('dialog', { name: 'Accreditation Notice' })).toBeVisible();
  await expectNoViolations(page);
});

for (const accreditation of accreditations) {
  test(`axe with the ${accreditation.name} dialog open`, async ({ page }) => {
    await page.goto('/about');
    await page.getByTestId('accreditation-grid').getByRole('button', { name: accreditation.name, exact: true }).click();
    await expect(page.getByRole('dialog', { name: accreditation.name })).toBeVisible();
    await expectNoViolations(page);
  });
}
