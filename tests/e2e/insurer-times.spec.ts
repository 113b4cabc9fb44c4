import { business } from '@/content/business';
import { insurerTimesText, statusText } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { axe } from './support/axe';
import { companyNotification, linkPath } from './support/claims';
import { routeRecaptcha } from './support/fake-recaptcha';
import { expect, test, type Page } from './support/test';

// An instruction's status page against the default test build: a loss adjuster instructs through the
// contact form, the company moves the claim on by the staff link in its notification, and the status
// link shows the times that matter to the adjuster. The standards in content/business.ts are still
// placeholders in this build, so the page stamps the times and claims no standard, met or missed
// (the arithmetic against confirmed standards: lib/insurer-times.test.ts and lib/working-time.test.ts).

/** A loss adjuster's instruction sent through the contact form; its reference and the company's notification. */
async function sentInstruction(page: Page, unique: string): Promise<{ reference: string; notification: string }> {
  await routeRecaptcha(page);
  await page.goto('/contact?role=loss-adjuster');
  const form = page.getByRole('form', { name: 'Send us a message' });
  await expect(form.getByLabel('Who is getting in touch', { exact: true })).toHaveValue('loss-adjuster');
  await form.getByLabel(/^Name/).fill('Alex Adjuster');
  await form.getByLabel(/^Email/).fill(`${unique}@adjusters.example`);
  await form.getByLabel(/^Subject/).fill(`Instruction ${unique}`);
  await form.getByLabel(/^Message/).fill('Escape of water from the bathroom above. Please survey.');
  await form.getByLabel('Insurer’s name', { exact: true }).fill('Example Mutual');
  await form.getByLabel('Claim or policy reference', { exact: true }).fill(`LA-${unique}`);
  await form.getByLabel(/^Policyholder’s name/).fill('Ann Policy');
  await form.getByLabel(/^Policyholder’s telephone/).fill('07700 900123');
  await form.getByLabel(/^Address of the property/).fill('Flat 2, 1 High Street, Kilsyth');
  await form.getByLabel('Postcode of the property', { exact: true }).fill('G65 0AA');
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/contact');
  await form.getByRole('button', { name: 'Send message' }).click();
  expect((await answered).status()).toBe(201);
  const reference = (await form.getByRole('status').getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
  expect(reference).toMatch(/^HC-/);
  const notification = await companyNotification(reference);
  return { reference, notification };
}

async function saveStage(page: Page, staffPath: string, stage: string, words: string) {
  await page.goto(staffPath);
  const form = page.getByTestId('staff-update');
  await form.getByLabel(staffPage.labels.stage).selectOption(stage);
  await form.getByRole('button', { name: staffPage.submit }).click();
  await expect(form.getByRole('status')).toHaveText(staffPage.saved(words));
}

test('an instruction’s status page stamps its received, first contact and survey times, and claims no standard while they are placeholders', async ({
  page,
}) => {
  expect(business.forInsurers.placeholder, 'this build’s standards are placeholders').toBe(true);
  const sent = await sentInstruction(page, `times-${Date.now()}`);
  const staff = linkPath(sent.notification, '/claim-update/');
  const status = linkPath(sent.notification, '/track/');

  await saveStage(page, staff, 'contacted', 'Contacted');
  await saveStage(page, staff, 'surveyed', 'Surveyed');

  await page.goto(status);
  await expect(page.getByRole('heading', { level: 1, name: statusText.heading(sent.reference) })).toBeVisible();
  await expect(page.getByTestId('claim-stage')).toHaveText('Surveyed');
  const times = page.getByTestId('insurer-times');
  await expect(times.getByRole('heading', { name: insurerTimesText.heading })).toBeVisible();
  await expect(times.getByTestId('standards-being-confirmed')).toHaveText(insurerTimesText.beingConfirmed);

  const table = times.getByRole('table', { name: insurerTimesText.captionUnconfirmed });
  await expect(table.getByRole('columnheader')).toHaveText([insurerTimesText.columns.step, insurerTimesText.columns.at]);
  // Each time reached is stamped with a London date and time; the report is not sent yet.
  const stamped = /^\d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}$/;
  for (const step of ['received', 'contacted', 'surveyed'] as const) {
    const row = table.getByTestId(`insurer-time-${step}`);
    await expect(row.getByRole('rowheader')).toHaveText(insurerTimesText.steps[step]);
    await expect(row.getByRole('cell')).toHaveText(stamped);
    await expect(row.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  }
  await expect(table.getByTestId('insurer-time-with-insurer').getByRole('cell')).toHaveText(insurerTimesText.notYet);

  // No standard is claimed: no standard column, no met, missed or due.
  for (const claim of [insurerTimesText.met, insurerTimesText.missed, insurerTimesText.dueBy, insurerTimesText.caption])
    await expect(times).not.toContainText(claim);
  await expect(times.getByTestId('insurer-outcome')).toHaveCount(0);
  for (const standard of business.forInsurers.responseStandards) await expect(times).not.toContainText(standard.detail);
  // Nothing of the instruction beyond the reference and the stages.
  await expect(page.getByTestId('claim-status')).not.toContainText(/Ann Policy|07700|High Street|Alex Adjuster|Example Mutual|LA-times/);
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
});
