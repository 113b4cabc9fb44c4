import { trackPage } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { dryingText, staffVisitText } from '@/content/drying';
import { axe } from './support/axe';
import { linkPath, londonLocal, sentEnquiry } from './support/claims';
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { signedCrmEvent } from '../support/crm-event';
import { testSiteUrl } from './test-env';

// A claim's drying record from the company's CRM, against the default test build: two signed visits,
// then the customer's status page at phone width (the readings in words, the chart, the table, the
// machines in the home), and the `dried` stage refused while a location is above its goal.

const DAY_MS = 24 * 60 * 60_000;
/** The day a time falls on in London, as the page writes it: "3 Dec". */
const ukDay = (at: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' }).format(at);

const sentDryingEnquiry = (request: APIRequestContext, unique: string) =>
  sentEnquiry(request, unique, { name: 'Morag Drying', subject: `Burst pipe ${unique}`, message: 'Water through the kitchen.' });

test('two visits from the CRM: the status page at phone width shows the drying record; dried waits for every goal', async ({
  page,
  request,
}) => {
  const { reference, email, notification } = await sentDryingEnquiry(request, `drying-${Date.now()}`);
  const first = new Date(Date.now() - 6 * DAY_MS);
  const second = new Date(Date.now() - 60 * 60_000);
  const dehumidifier = { kind: 'dehumidifier', model: 'Ebac BD150', watts: 700, count: 1, on: first.toISOString(), off: null, kwh: null };
  const airMovers = { kind: 'air-mover', model: 'Dri-Eaz Sahara', watts: 150, count: 2, on: first.toISOString(), off: null, kwh: null };
  const visit = (at: Date, kitchen: number, equipment: unknown[]) => ({
    reference,
    visitAt: at.toISOString(),
    readings: [
      { location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: kitchen, goal: 12 },
      { location: 'Hall floor', material: 'screed', scale: 'relative', value: kitchen === 28 ? 310 : 110, goal: 120 },
    ],
    equipment,
  });
  const post = (type: string, data: Record<string, unknown>) => request.post(`${testSiteUrl}/api/crm/events`, signedCrmEvent(type, data));

  // A reading off its scale is refused, naming the field.
  const offScale = await post('claim.drying_recorded', {
    ...visit(first, 28, []),
    readings: [{ ...visit(first, 28, []).readings[0], value: 101 }],
  });
  expect(offScale.status()).toBe(400);
  expect((await offScale.json()).errors).toEqual([{ path: 'data.readings[0].value', msg: 'must be within the wme scale, 0-100' }]);

  expect((await post('claim.drying_recorded', visit(first, 28, [dehumidifier, airMovers]))).status()).toBe(200);
  // The second visit takes the air movers away and leaves the dehumidifier running.
  const taken = { ...airMovers, off: second.toISOString() };
  expect((await post('claim.drying_recorded', visit(second, 14, [dehumidifier, taken]))).status()).toBe(200);

  // Dried is refused while the kitchen wall is above its goal, naming it.
  const refused = await post('claim.updated', { reference, stage: 'dried' });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).errors).toEqual([
    { path: 'data.stage', msg: 'cannot be "dried": Kitchen wall, plaster is above its drying goal' },
  ]);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(linkPath(notification, '/track/'));
  await expect(page).toHaveURL(new RegExp(`/claims/${reference}$`));
  const drying = page.getByRole('region', { name: dryingText.heading });
  const kitchen = `Kitchen wall, plaster: 28 on ${ukDay(first)}, 14 on ${ukDay(second)}, goal 12`;
  await expect(drying.getByText(kitchen, { exact: true })).toBeVisible();
  await expect(
    drying.getByText(`Hall floor, screed: 310 on ${ukDay(first)}, 110 on ${ukDay(second)}, goal 120`, { exact: true }),
  ).toBeVisible();
  await expect(drying.getByTestId('drying-days')).toHaveText('Drying for 6 days so far.');
  const chart = drying.getByRole('img', { name: kitchen });
  await expect(chart).toBeVisible();
  await expect(chart.locator('circle')).toHaveCount(2);
  await expect(chart.getByTestId('drying-goal-line')).toHaveCount(1);
  expect((await chart.boundingBox())!.width).toBeLessThanOrEqual(390);
  const table = drying.getByRole('table', { name: /Readings: Kitchen wall, plaster/ });
  await expect(table.getByRole('row')).toHaveText(['DateReadingGoal', `${ukDay(first)}2812`, `${ukDay(second)}1412`]);
  await expect(drying.getByTestId('drying-machines').getByRole('listitem')).toHaveText([/^Ebac BD150 dehumidifier, since /]);
  await expect(page.locator('body')).not.toContainText('Morag');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('status-page-drying-phone.png'), fullPage: true });

  // The look-up shows the same record.
  await page.goto('/track');
  const lookUp = page.getByTestId('claim-look-up');
  await lookUp.getByLabel(trackPage.labels.reference).fill(reference);
  await lookUp.getByLabel(trackPage.labels.email).fill(email);
  await lookUp.getByRole('button', { name: trackPage.submit }).click();
  await expect(page.getByRole('region', { name: dryingText.heading }).getByRole('img', { name: kitchen })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  // The staff page does not offer dried yet; after a visit that meets every goal it does, and saves it.
  const staffPath = linkPath(notification, '/claim-update/');
  await page.goto(staffPath);
  await expect(page).toHaveURL(new RegExp(`/claims/${reference}/update$`));
  const stage = page.getByTestId('staff-update').getByLabel(staffPage.labels.stage);
  await expect(stage.locator('option', { hasText: 'Drying out' })).toHaveCount(1);
  await expect(stage.locator('option', { hasText: 'Dried: ready for repairs' })).toHaveCount(0);

  expect((await post('claim.drying_recorded', visit(new Date(Date.now() - 60_000), 11, []))).status()).toBe(200);
  await page.reload();
  await page.getByTestId('staff-update').getByLabel(staffPage.labels.stage).selectOption('dried');
  await page.getByTestId('staff-update').getByLabel(staffPage.labels.confirmedBy).fill('Sam Fitter');
  await page.getByTestId('staff-update').getByRole('button', { name: staffPage.submit }).click();
  await expect(page.getByTestId('staff-update').getByRole('status')).toHaveText(staffPage.saved('Dried: ready for repairs'));
});

/** Two visits recorded from the staff page: the first places a dehumidifier, the second reads again and switches it off. */
async function recordTwoVisits(page: Page, request: APIRequestContext, unique: string, { withScript }: { withScript: boolean }) {
  const { reference, notification } = await sentDryingEnquiry(request, unique);
  const first = new Date(Math.floor((Date.now() - 3 * DAY_MS - 2 * 60 * 60_000) / 60_000) * 60_000);
  const second = new Date(Math.floor((Date.now() - 60 * 60_000) / 60_000) * 60_000);
  await page.goto(linkPath(notification, '/claim-update/'));
  await expect(page).toHaveURL(new RegExp(`/claims/${reference}/update$`));
  // axe runs in the page: only with its script.
  if (withScript) expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  let form = page.getByTestId('staff-visit');
  await form.getByLabel(staffVisitText.visitAt).fill(londonLocal(first));
  const location = form.getByRole('group', { name: staffVisitText.locationRow(1) });
  await location.getByLabel(staffVisitText.labels.location).fill('Kitchen wall');
  await location.getByLabel(staffVisitText.labels.value).fill('28');
  await location.getByLabel(staffVisitText.labels.goal).fill('12');
  const machine = form.getByRole('group', { name: staffVisitText.machineRow(1) });
  await machine.getByLabel(staffVisitText.machineLabels.model).fill('Ebac BD150');
  await machine.getByLabel(staffVisitText.machineLabels.watts).fill('700');
  await machine.getByLabel(staffVisitText.machineLabels.on).fill(londonLocal(first));
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(page.getByText(staffVisitText.saved(1, 1))).toBeVisible();

  // The page again: the location and the running machine are filled in; a reading and an off time are typed.
  await page.goto(`/claims/${reference}/update`);
  form = page.getByTestId('staff-visit');
  await form.getByLabel(staffVisitText.visitAt).fill(londonLocal(second));
  const again = form.getByRole('group', { name: staffVisitText.locationRow(1) });
  await expect(again.getByLabel(staffVisitText.labels.location)).toHaveValue('Kitchen wall');
  await again.getByLabel(staffVisitText.labels.value).fill('14');
  const running = form.getByRole('group', { name: staffVisitText.machineRow(1) });
  await expect(running).toContainText(/^Machine 1Ebac BD150 dehumidifier, switched on /);
  await expect(running.getByLabel(staffVisitText.machineLabels.count)).toHaveValue('1');
  await running.getByLabel(staffVisitText.machineLabels.off).fill(londonLocal(second));
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(page.getByText(staffVisitText.saved(1, 1))).toBeVisible();

  await page.goto(linkPath(notification, '/track/'));
  const drying = page.getByRole('region', { name: dryingText.heading });
  await expect(
    drying.getByText(`Kitchen wall, plaster: 28 on ${ukDay(first)}, 14 on ${ukDay(second)}, goal 12`, { exact: true }),
  ).toBeVisible();
  await expect(drying.getByText(dryingText.noMachines)).toBeVisible();
  await expect(drying.getByTestId('drying-days')).toHaveText('Drying took 3 days.');
}

test('two visits recorded from the staff page show on the status page', async ({ page, request }) => {
  await recordTwoVisits(page, request, `drying-staff-${Date.now()}`, { withScript: true });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the staff page records visits without JavaScript too', async ({ page, request }) => {
    await recordTwoVisits(page, request, `drying-staff-nojs-${Date.now()}`, { withScript: false });
  });
});
