import { readFile } from 'node:fs/promises';
import { business } from '@/content/business';
import { stageEmailText } from '@/content/claims';
import { dryingText, staffVisitText } from '@/content/drying';
import { dryingDocumentsText as documentWords } from '@/content/drying-documents';
import { staffPage } from '@/content/staff-page';
import { parseMail } from '@/tests/support/mail-message';
import { outboxMessages } from '@/tests/support/outbox';
import { pdfText } from '@/tests/support/pdf-text';
import { axe } from './support/axe';
import { linkPath, londonLocal, sentEnquiry } from './support/claims';
import { signedCrmEvent } from '../support/crm-event';
import { expect, test, type APIRequestContext, type Page } from './support/test';
import { testOutboxDir, testSiteUrl } from './test-env';

// A claim's drying record built the way a real claim builds it, the CRM's signed events and the staff
// page mixed, against the default test build: a machine stays one machine whichever side speaks of it,
// a staff visit changes only what it changes, a form sent twice says it changed nothing, and a wet
// reading after `dried` moves the claim back to drying.

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

const sentDryingEnquiry = (request: APIRequestContext, unique: string) =>
  sentEnquiry(request, unique, { name: 'Morag Record', subject: `Burst pipe ${unique}`, message: 'Water through the kitchen ceiling.' });

type Machine = { kind: string; model: string; watts: number; count: number; on: string; off: string | null; kwh: number | null };
const dehumidifier = (on: string, extra: Partial<Machine> = {}): Machine => ({
  kind: 'dehumidifier',
  model: 'Ebac BD150',
  watts: 700,
  count: 1,
  on,
  off: null,
  kwh: null,
  ...extra,
});

/** A visit from the CRM, signed: the kitchen wall's reading and the machines it names. */
async function crmVisit(request: APIRequestContext, reference: string, at: Date, kitchen: number, equipment: Machine[]) {
  const answer = await request.post(
    `${testSiteUrl}/api/crm/events`,
    signedCrmEvent('claim.drying_recorded', {
      reference,
      visitAt: at.toISOString(),
      readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: kitchen, goal: 12 }],
      equipment,
    }),
  );
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The staff page's visit form: a new reading of the first location, at `at`, the machines left as served. */
async function staffReading(page: Page, staffPath: string, at: Date, value: string) {
  await page.goto(staffPath);
  const form = page.getByTestId('staff-visit');
  await form.getByLabel(staffVisitText.visitAt).fill(londonLocal(at));
  await form
    .getByRole('group', { name: staffVisitText.locationRow(1) })
    .getByLabel(staffVisitText.labels.value)
    .fill(value);
  return form;
}

const runningMachines = async (page: Page, notification: string) => {
  await page.goto(linkPath(notification, '/track/'));
  return page.getByRole('region', { name: dryingText.heading }).getByTestId('drying-machines').getByRole('listitem');
};

test('a CRM machine recorded to the second with its meter kWh, then a staff visit: the statement lists it once, with its 40 kWh', async ({
  page,
  request,
}) => {
  const { reference, notification } = await sentDryingEnquiry(request, `record-meter-${Date.now()}`);
  const on = new Date(Math.floor((Date.now() - 3 * DAY_MS) / HOUR_MS) * HOUR_MS + 30_000);
  await crmVisit(request, reference, on, 28, [dehumidifier(on.toISOString(), { kwh: 40 })]);

  const staffPath = linkPath(notification, '/claim-update/');
  const form = await staffReading(page, staffPath, new Date(Date.now() - HOUR_MS), '20');
  const running = form.getByRole('group', { name: staffVisitText.machineRow(1) });
  await expect(running.getByLabel(staffVisitText.machineLabels.count)).toHaveValue('1');
  await expect(running.getByLabel(staffVisitText.machineLabels.kwh)).toHaveValue('');
  await expect(form.getByText(staffVisitText.numberHint)).toBeVisible();
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(form.getByRole('status')).toHaveText(staffVisitText.saved(1, 0));

  await expect(await runningMachines(page, notification)).toHaveCount(1);
  const documents = page.getByTestId('drying-documents');
  await documents.getByLabel(documentWords.statementRateLabel).fill('24.5');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    documents.getByRole('button', { name: documentWords.statementButton }).click(),
  ]);
  const statement = await pdfText(new Uint8Array(await readFile((await download.path())!)));
  expect(statement.match(/Ebac BD150 dehumidifier/g)).toHaveLength(1);
  // The machines' table: machine, rated W, on, off, hours, kWh, source.
  expect(statement).toMatch(new RegExp(`Ebac BD150 dehumidifier 700 .+ still running [0-9.]+ 40\\.0 ${documentWords.pdf.sources.meter}`));
  expect(statement).not.toContain(documentWords.pdf.sources.rated);
  expect(statement).toContain('Total electricity used: 40.0 kWh');
});

test('the hour the clocks go back: a machine the CRM recorded at the second 01:30, then a staff visit, is still one machine', async ({
  page,
  request,
}) => {
  const { reference, notification } = await sentDryingEnquiry(request, `record-clocks-${Date.now()}`);
  // 01:30 GMT on 25 October 2026: the second time the London clock showed 01:30 that night.
  const on = '2026-10-25T01:30:00Z';
  await crmVisit(request, reference, new Date('2026-10-25T02:00:00Z'), 28, [dehumidifier(on)]);
  const form = await staffReading(page, linkPath(notification, '/claim-update/'), new Date(Date.now() - HOUR_MS), '20');
  await expect(form.getByRole('group', { name: staffVisitText.machineRow(1) })).toContainText(
    staffVisitText.runningMachine('Ebac BD150', 'dehumidifier', '25 Oct 2026, 01:30:00 GMT'),
  );
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(form.getByRole('status')).toHaveText(staffVisitText.saved(1, 0));
  await expect(await runningMachines(page, notification)).toHaveCount(1);
});

test('21 machines running and a staff visit that switches one off: accepted, exactly that one switched off', async ({ page, request }) => {
  const { reference, notification } = await sentDryingEnquiry(request, `record-many-${Date.now()}`);
  const first = Math.floor((Date.now() - 2 * DAY_MS) / 60_000) * 60_000;
  const ons = Array.from({ length: 21 }, (_, n) => new Date(first + n * 1000).toISOString());
  // A CRM event carries at most 20 machines: two visits.
  await crmVisit(
    request,
    reference,
    new Date(first + 60_000),
    28,
    ons.slice(0, 20).map((on) => dehumidifier(on)),
  );
  await crmVisit(request, reference, new Date(first + 120_000), 27, [dehumidifier(ons[20]!)]);
  await expect(await runningMachines(page, notification)).toHaveCount(21);

  await page.goto(linkPath(notification, '/claim-update/'));
  const form = page.getByTestId('staff-visit');
  const off = new Date(Date.now() - HOUR_MS);
  await form.getByLabel(staffVisitText.visitAt).fill(londonLocal(off));
  await form
    .getByRole('group', { name: staffVisitText.machineRow(8) })
    .getByLabel(staffVisitText.machineLabels.off)
    .fill(londonLocal(off));
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(form.getByRole('status')).toHaveText(staffVisitText.saved(0, 1));
  const machines = await runningMachines(page, notification);
  await expect(machines).toHaveCount(20);
  // The eighth, switched on 7 seconds after the first, is the one gone.
  await expect(machines.locator(`time[datetime="${ons[7]}"]`)).toHaveCount(0);
  for (const on of [ons[0]!, ons[6]!, ons[8]!, ons[20]!]) await expect(machines.locator(`time[datetime="${on}"]`)).toHaveCount(1);
});

/** The London time "14:02" of a moment, as the "already sent" answer gives the first send's. */
const londonTime = (at: Date) => londonLocal(at).slice(11);

/** The "already sent" words of a send the server recorded between two instants: the minute may turn between them. */
const alreadySentBetween = (from: Date, to: Date, what: string) =>
  new RegExp(
    `^(?:${[...new Set([londonTime(from), londonTime(to)])]
      .map((time) => staffPage.alreadySent(time, what).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})$`,
  );

/**
 * Both staff forms sent a second time with their first token and other content (the Back button, then
 * a corrected stage or a new reading): answered with the exact "already sent" words, nothing changed.
 * `resend` puts the page back at the first form, as the browser's history does.
 */
async function sentTwice(page: Page, request: APIRequestContext, unique: string, resend: (form: string, token: string) => Promise<void>) {
  const { reference, notification } = await sentDryingEnquiry(request, unique);
  await crmVisit(request, reference, new Date(Date.now() - 2 * DAY_MS), 28, []);
  const staffPath = linkPath(notification, '/claim-update/');

  await page.goto(staffPath);
  let stage = page.getByTestId('staff-update');
  const stageToken = await stage.locator('input[name="formToken"]').inputValue();
  await stage.getByLabel(staffPage.labels.stage).selectOption('survey-booked');
  const savedAt = new Date();
  await stage.getByRole('button', { name: staffPage.submit }).click();
  await expect(page.getByTestId('staff-update').getByRole('status')).toHaveText(staffPage.saved('Survey booked'));
  const savedBy = new Date();
  await resend('staff-update', stageToken);
  stage = page.getByTestId('staff-update');
  await stage.getByLabel(staffPage.labels.stage).selectOption('surveyed');
  await stage.getByRole('button', { name: staffPage.submit }).click();
  await expect(page.getByTestId('staff-update').getByRole('alert')).toHaveText(
    alreadySentBetween(savedAt, savedBy, staffPage.firstStage('Survey booked')),
  );

  await page.goto(staffPath);
  let visit = page.getByTestId('staff-visit');
  const visitToken = await visit.locator('input[name="formToken"]').inputValue();
  const visitAt = new Date(Math.floor((Date.now() - DAY_MS) / 60_000) * 60_000);
  await visit.getByLabel(staffVisitText.visitAt).fill(londonLocal(visitAt));
  await visit
    .getByRole('group', { name: staffVisitText.locationRow(1) })
    .getByLabel(staffVisitText.labels.value)
    .fill('20');
  const recordedAt = new Date();
  await visit.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(page.getByTestId('staff-visit').getByRole('status')).toHaveText(staffVisitText.saved(1, 0));
  const recordedBy = new Date();
  await resend('staff-visit', visitToken);
  visit = page.getByTestId('staff-visit');
  await visit.getByLabel(staffVisitText.visitAt).fill(londonLocal(new Date(Date.now() - HOUR_MS)));
  await visit
    .getByRole('group', { name: staffVisitText.locationRow(1) })
    .getByLabel(staffVisitText.labels.value)
    .fill('15');
  await visit.getByRole('button', { name: staffVisitText.submit }).click();
  const day = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Europe/London',
  }).format(visitAt);
  await expect(page.getByTestId('staff-visit').getByRole('alert')).toHaveText(
    alreadySentBetween(recordedAt, recordedBy, staffVisitText.firstVisit(day, 1)),
  );

  // Nothing of the second sends: the claim at Survey booked, the kitchen wall read twice.
  await page.goto(linkPath(notification, '/track/'));
  await expect(page.getByTestId('claim-stage')).toContainText('Survey booked');
  await expect(
    page.getByRole('region', { name: dryingText.heading }).getByText(/^Kitchen wall, plaster: 28 on .+, 20 on .+, goal 12$/),
  ).toBeVisible();
}

/** The form as the browser restores it from its history, carrying the token it was first sent with. */
const restoredForm = (page: Page) => async (form: string, token: string) => {
  await page.evaluate(
    ([testId, value]) => {
      document.querySelector<HTMLInputElement>(`[data-testid="${testId}"] input[name="formToken"]`)!.value = value!;
    },
    [form, token],
  );
};

test('a form token sent again with other content is answered "already sent", and nothing changes', async ({ page, request }) => {
  await sentTwice(page, request, `record-twice-${Date.now()}`, restoredForm(page));
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a form token sent again with other content is answered "already sent", and nothing changes', async ({ page, request }) => {
    // Chromium fetches this page again on Back (it is not cached), so the first form is put back by the test.
    await sentTwice(page, request, `record-twice-nojs-${Date.now()}`, restoredForm(page));
  });
});

/** The customer's e-mails about their claim moving to this stage. */
const stageEmails = (email: string, reference: string, stage: string) =>
  outboxMessages(testOutboxDir)
    .map((raw) => parseMail(raw))
    .filter((mail) => mail.headers.to?.includes(email) && mail.subject === stageEmailText.subject(reference, stage, business.name));

test('a wet reading after dried: warned, confirmed, the claim back in drying, the certificate gone, the customer told once', async ({
  page,
  request,
}) => {
  const { reference, email, notification } = await sentDryingEnquiry(request, `record-wet-${Date.now()}`);
  await crmVisit(request, reference, new Date(Date.now() - 2 * DAY_MS), 11, []);
  const staffPath = linkPath(notification, '/claim-update/');
  await page.goto(staffPath);
  const stage = page.getByTestId('staff-update');
  await stage.getByLabel(staffPage.labels.stage).selectOption('dried');
  await stage.getByLabel(staffPage.labels.confirmedBy).fill('Sam Fitter');
  await stage.getByRole('button', { name: staffPage.submit }).click();
  await expect(stage.getByRole('status')).toHaveText(staffPage.saved('Dried: ready for repairs'));
  await page.goto(linkPath(notification, '/track/'));
  await expect(page.getByRole('link', { name: documentWords.certificateLink })).toHaveCount(1);

  const form = await staffReading(page, staffPath, new Date(Date.now() - HOUR_MS), '15');
  await expect(form.getByTestId('wet-warning')).toHaveText(staffVisitText.wetWarning('12'));
  const confirm = form.getByRole('checkbox', { name: staffVisitText.confirmWet });
  await expect(confirm).toBeVisible();
  expect((await axe(page).analyze()).violations.map((violation) => violation.id)).toEqual([]);
  // The box must be ticked before the form goes: by keyboard.
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(form.getByRole('status')).toHaveText('');
  await confirm.focus();
  await page.keyboard.press('Space');
  await form.getByRole('button', { name: staffVisitText.submit }).click();
  await expect(form.getByRole('status')).toHaveText(`${staffVisitText.saved(1, 0)} ${staffVisitText.reopened}`);

  await page.goto(linkPath(notification, '/track/'));
  await expect(page.getByTestId('claim-stage')).toContainText('Drying out');
  await expect(page.getByRole('link', { name: documentWords.certificateLink })).toHaveCount(0);
  await expect.poll(() => stageEmails(email, reference, 'Drying out').length).toBe(1);
  const [told] = stageEmails(email, reference, 'Drying out');
  expect(told!.text).toContain(staffVisitText.reopenNote('Kitchen wall, plaster'));
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a wet reading after dried is recorded only once confirmed on the server’s answer', async ({ page, request }) => {
    const { reference, email, notification } = await sentDryingEnquiry(request, `record-wet-nojs-${Date.now()}`);
    await crmVisit(request, reference, new Date(Date.now() - 2 * DAY_MS), 11, []);
    const staffPath = linkPath(notification, '/claim-update/');
    await page.goto(staffPath);
    const stage = page.getByTestId('staff-update');
    await stage.getByLabel(staffPage.labels.stage).selectOption('dried');
    await stage.getByLabel(staffPage.labels.confirmedBy).fill('Sam Fitter');
    await stage.getByRole('button', { name: staffPage.submit }).click();
    await expect(page.getByTestId('staff-update').getByRole('status')).toHaveText(staffPage.saved('Dried: ready for repairs'));

    let form = await staffReading(page, staffPath, new Date(Date.now() - HOUR_MS), '15');
    await form.getByRole('button', { name: staffVisitText.submit }).click();
    form = page.getByTestId('staff-visit');
    await expect(form.getByRole('alert')).toHaveText(staffVisitText.confirmWetNeeded);
    await expect(form.getByText(staffVisitText.wetWarning('12'))).toBeVisible();
    await form.getByRole('checkbox', { name: staffVisitText.confirmWet }).check();
    await form.getByRole('button', { name: staffVisitText.submit }).click();
    await expect(page.getByTestId('staff-visit').getByRole('status')).toHaveText(
      `${staffVisitText.saved(1, 0)} ${staffVisitText.reopened}`,
    );
    await page.goto(linkPath(notification, '/track/'));
    await expect(page.getByTestId('claim-stage')).toContainText('Drying out');
    await expect.poll(() => stageEmails(email, reference, 'Drying out').length).toBe(1);
  });
});
