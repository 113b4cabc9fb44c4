import ICAL from 'ical.js';
import { business } from '@/content/business';
import { surveyBookingText as words } from '@/content/survey-booking';
import { staffPage } from '@/content/staff-page';
import { dateWords, offeredDates, todayAndNextWorkingDay, windowWords, type SurveyWindow } from '@/lib/survey-windows';
import { axe } from './support/axe';
import { linkPath, sentEnquiry } from './support/claims';
import { openTestDatabase } from './support/database';
import { expect, hydrated, test, type Browser, type Page } from './support/test';
import { testBuildEnv } from './test-env';

// The homeowner books the survey on the status page, against the default test build and the real
// clock: the windows offered are worked out here by the same calendar (lib/survey-windows.ts), so the
// test holds on any day it runs.

const section = (page: Page) => page.getByRole('region', { name: words.heading });

/** A new claim's status page, opened by its link in a browser of its own; and its staff link. */
async function statusPage(browser: Browser, unique: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const sent = await sentEnquiry(context.request, unique);
  const page = await context.newPage();
  await page.goto(linkPath(sent.notification, '/track/'));
  await expect(page).toHaveURL(new RegExp(`/claims/${sent.reference}$`));
  if (javaScriptEnabled) await hydrated(page);
  return { page, reference: sent.reference, staffLink: linkPath(sent.notification, '/claim-update/') };
}

/** The first window offered now, a morning. */
const firstWindow = (): SurveyWindow => ({ date: offeredDates(Date.now(), business.openingHours)[0]!, window: 'am' });

/**
 * Room for `places` more visits in a window from its date on, whatever earlier tests of this build's
 * database booked in it: the company's capacity set as `npm run appointments -- --capacity` sets it.
 */
async function roomIn(slot: SurveyWindow, places: number): Promise<void> {
  const db = openTestDatabase(testBuildEnv.DATABASE_URL!);
  try {
    const booked = await db.execute({
      sql: "SELECT count(*) AS n FROM survey_appointments WHERE date = ? AND window = ? AND status = 'booked'",
      args: [slot.date, slot.window],
    });
    await db.execute({
      sql: "INSERT INTO survey_capacity (from_date, window, capacity, source, set_ms) VALUES (?, ?, ?, 'operator', ?)",
      args: [slot.date, slot.window, Number(booked.rows[0]!.n) + places, Date.now()],
    });
  } finally {
    db.close();
  }
}

/** Books `slot` on a status page opened before room was made in it: the page shown again, the window chosen, booked. */
async function bookOnStatusPage(page: Page, slot: SurveyWindow) {
  await page.reload();
  await hydrated(page);
  await section(page)
    .getByRole('radio', { name: windowWords(slot) })
    .check();
  await section(page).getByRole('button', { name: words.button }).click();
  await expect(page.getByTestId('survey-booked')).toHaveText(words.booked(windowWords(slot)));
}

for (const script of ['with', 'without'] as const) {
  test(`the homeowner books the first morning offered and gets its invite, ${script} JavaScript`, async ({ browser }) => {
    const { page, reference } = await statusPage(browser, `survey-${script}-${Date.now()}`, script === 'with');
    const slot = firstWindow();
    await roomIn(slot, 1);
    await roomIn({ date: slot.date, window: 'pm' }, 1);
    await page.reload();
    if (script === 'with') await hydrated(page);
    const booking = section(page);
    await expect(booking).toContainText(words.intro);
    // The days are listed by name, the first one the next working day.
    await expect(booking.getByRole('group').nth(1)).toHaveAccessibleName(dateWords(slot.date));
    await booking.getByRole('radio', { name: windowWords(slot) }).check();
    await booking.getByRole('button', { name: words.button }).click();
    const booked = page.getByTestId('survey-booked');
    await expect(booked).toHaveText(words.booked(windowWords(slot)));
    await expect(page.getByTestId('claim-stage')).toHaveText('Survey booked');

    const invite = await page.request.get(`/claims/${reference}/survey.ics`);
    expect(invite.status()).toBe(200);
    expect(invite.headers()['content-type']).toBe('text/calendar; charset=utf-8; method=REQUEST');
    const calendar = new ICAL.Component(ICAL.parse(await invite.text()));
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(event.sequence).toBe(0);
    expect(event.uid).toMatch(/@survey\.homecare-web\.invalid$/);
    expect(event.description).toContain(reference);
    // 08:00 on the London clock, whatever the season.
    const start = event.startDate.toJSDate();
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' }).format(start)).toBe('08:00');

    // Opened again, the page shows the visit, not the windows.
    await page.reload();
    const visit = page.getByRole('region', { name: words.bookedHeading });
    await expect(visit).toContainText(words.booked(windowWords(slot)));

    // Moved to the afternoon: the same UID, SEQUENCE 1, the new time.
    const afternoon: SurveyWindow = { date: slot.date, window: 'pm' };
    await visit.getByText(words.changeSummary).click();
    await visit.getByRole('radio', { name: windowWords(afternoon) }).check();
    await visit.getByRole('button', { name: words.moveButton }).click();
    await expect(page.getByTestId('survey-booked')).toHaveText(words.moved(windowWords(afternoon)));
    const moved = new ICAL.Event(
      new ICAL.Component(ICAL.parse(await (await page.request.get(`/claims/${reference}/survey.ics`)).text())).getFirstSubcomponent(
        'vevent',
      )!,
    );
    expect(moved.uid).toBe(event.uid);
    expect(moved.sequence).toBe(1);
    expect(moved.startDate.toJSDate().getTime() - start.getTime()).toBe(4 * 60 * 60_000);

    // Cancelled, after a second press that confirms it: the times are offered again and the claim waits on the homeowner.
    const survey = page.getByRole('region', { name: /survey/i });
    await survey.getByText(words.changeSummary).click();
    await survey.getByRole('button', { name: words.cancelButton }).click();
    await expect(survey).toContainText(words.confirmCancel(windowWords(afternoon)));
    await survey.getByRole('button', { name: words.confirmCancelButton }).click();
    await expect(survey.getByRole('status').filter({ hasText: words.cancelled(windowWords(afternoon)) })).toBeVisible();
    await expect(survey.getByRole('radio', { name: windowWords(slot) })).toBeVisible();
    await expect(page.getByTestId('claim-stage')).toHaveText('Contacted');
    expect((await page.request.get(`/claims/${reference}/survey.ics`)).status()).toBe(404);
    await page.context().close();
  });
}

test('the last two places of a window go to two of ten homeowners pressing at once; the eight are told and see the times left', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const dates = offeredDates(Date.now(), business.openingHours);
  const slot: SurveyWindow = { date: dates.at(-1)!, window: 'pm' };
  // Two places left in this window, whatever earlier tests booked in it.
  await roomIn(slot, 2);
  const homeowners = await Promise.all(Array.from({ length: 10 }, (_, index) => statusPage(browser, `survey-rush-${index}-${Date.now()}`)));
  for (const { page } of homeowners)
    await section(page)
      .getByRole('radio', { name: windowWords(slot) })
      .check();
  await Promise.all(homeowners.map(({ page }) => section(page).getByRole('button', { name: words.button }).click()));
  const outcomes = await Promise.all(
    homeowners.map(async ({ page }) => {
      const booked = page.getByTestId('survey-booked');
      const told = section(page).getByRole('alert');
      await expect(booked.or(told.filter({ hasText: words.refused.full }))).toBeVisible({ timeout: 30_000 });
      return (await booked.count()) > 0 ? 'booked' : 'told';
    }),
  );
  expect(outcomes.filter((outcome) => outcome === 'booked')).toHaveLength(2);
  expect(outcomes.filter((outcome) => outcome === 'told')).toHaveLength(8);
  // Each of the eight sees the times left, without the full one.
  for (const { page } of homeowners)
    if ((await page.getByTestId('survey-booked').count()) === 0) {
      await expect(section(page).getByRole('radio', { name: windowWords(slot) })).toHaveCount(0);
      await expect(section(page).getByRole('radio').first()).toBeVisible();
    }
  for (const { page } of homeowners) await page.context().close();
});

test('a window that is not offered is refused with the reason and the times left, never an error', async ({ browser }) => {
  const { page } = await statusPage(browser, `survey-refused-${Date.now()}`, false);
  const booking = section(page);
  // A Saturday, as a tampered form would post it.
  await booking
    .locator('input[type="radio"]')
    .first()
    .evaluate((radio) => {
      (radio as HTMLInputElement).value = '2026-11-28-am';
      (radio as HTMLInputElement).checked = true;
    });
  await booking.getByRole('button', { name: words.button }).click();
  await expect(section(page).getByRole('alert')).toHaveText(words.refused['not-offered']);
  await expect(section(page).getByRole('radio').first()).toBeVisible();
  await expect(page.getByTestId('claim-stage')).toHaveText('Received');
  await page.context().close();
});

for (const width of [390, 1280])
  test(`axe finds nothing in "Book your survey" at ${width} px, and it books by keyboard alone`, async ({ browser }) => {
    const { page } = await statusPage(browser, `survey-keys-${width}-${Date.now()}`);
    await roomIn(firstWindow(), 1);
    await page.reload();
    await hydrated(page);
    await page.setViewportSize({ width, height: 900 });
    expect((await axe(page).analyze()).violations).toEqual([]);
    const slot = firstWindow();
    const first = section(page).getByRole('radio', { name: windowWords(slot) });
    await first.focus();
    await page.keyboard.press('Space');
    await expect(first).toBeChecked();
    // The radios are one group (one name) whatever the day: Tab goes from the choice to the button.
    await page.keyboard.press('Tab');
    await expect(section(page).getByRole('button', { name: words.button })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('survey-booked')).toHaveText(words.booked(windowWords(slot)));
    expect((await axe(page).analyze()).violations).toEqual([]);
    await page.context().close();
  });

test('the company records "no access" on the staff page: the visit leaves its day list, and the homeowner is asked to book again', async ({
  browser,
}) => {
  const { page, reference, staffLink } = await statusPage(browser, `survey-no-access-${Date.now()}`);
  const slot = firstWindow();
  await roomIn(slot, 1);
  await bookOnStatusPage(page, slot);

  const company = await browser.newContext();
  const staff = await company.newPage();
  await staff.goto(staffLink);
  await hydrated(staff);
  const survey = staff.getByTestId('staff-survey');
  await expect(survey).toContainText(staffPage.survey.booked(windowWords(slot)));
  // The day list holds today and the next working day: the first window offered is on the next
  // working day unless the day's booking had closed (after 17:00), when it is the day after.
  const [, nextWorkingDay] = todayAndNextWorkingDay(Date.now(), business.openingHours);
  const nextDay = staff.getByTestId('staff-day').nth(1);
  await expect(nextDay.getByRole('heading')).toHaveText(dateWords(nextWorkingDay));
  if (slot.date === nextWorkingDay) await expect(nextDay).toContainText(reference);
  else await expect(nextDay).not.toContainText(reference);
  expect((await axe(staff).analyze()).violations).toEqual([]);

  await survey.getByRole('button', { name: staffPage.survey.noAccess }).click();
  await expect(survey.getByRole('status')).toHaveText(staffPage.survey.noAccessDone(windowWords(slot)));
  await expect(survey).toContainText(staffPage.survey.none);
  await expect(nextDay).not.toContainText(reference);

  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('claim-stage')).toHaveText('Contacted');
  await expect(section(page).getByRole('radio').first()).toBeVisible();
  await expect(page.getByText(`Our surveyor could not get in on ${windowWords(slot)}.`)).toBeVisible();
  await company.close();
  await page.context().close();
});

test('the company moves the visit on the staff page without JavaScript: the homeowner’s page shows the new time and why', async ({
  browser,
}) => {
  const { page, staffLink } = await statusPage(browser, `survey-company-move-${Date.now()}`);
  const slot = firstWindow();
  const later: SurveyWindow = { date: offeredDates(Date.now(), business.openingHours)[1]!, window: 'pm' };
  await roomIn(slot, 1);
  await roomIn(later, 1);
  await bookOnStatusPage(page, slot);

  const company = await browser.newContext({ javaScriptEnabled: false });
  const staff = await company.newPage();
  await staff.goto(staffLink);
  const survey = staff.getByTestId('staff-survey');
  await expect(survey).toContainText(staffPage.survey.booked(windowWords(slot)));
  await survey.getByLabel(staffPage.survey.moveTo).selectOption({ label: windowWords(later) });
  await survey.getByRole('button', { name: staffPage.survey.move }).click();
  await expect(survey.getByRole('status')).toHaveText(staffPage.survey.moved(windowWords(later)));
  await expect(survey).toContainText(staffPage.survey.booked(windowWords(later)));

  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('survey-booked')).toHaveText(words.booked(windowWords(later)));
  await expect(page.getByText(`We have moved your survey visit to ${windowWords(later)}.`)).toBeVisible();
  await company.close();
  await page.context().close();
});
