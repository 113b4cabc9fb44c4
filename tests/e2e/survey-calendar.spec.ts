import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { business } from '@/content/business';
import { surveyBookingText as words } from '@/content/survey-booking';
import { offeredDates, reminderDueAt, windowWords, type SurveyWindow } from '@/lib/survey-windows';
import { startSiteServer } from '../../scripts/support/site-server';
import { parseMail } from '../support/mail-message';
import { outboxMessages } from '../support/outbox';
import { linkPath, sentEnquiry } from './support/claims';
import { openTestDatabase } from './support/database';
import { expect, hydrated, test, type Browser, type Page } from './support/test';
import { testBuildEnv, testPorts } from './test-env';

// The survey booking against servers of the test build of their own (their own ports, databases and
// outboxes): on days of the calendar the server's clock is started at, and across restarts of the
// server. They share nothing with the build's own server, so they run in the worker of the specs with
// servers of their own (tests/e2e/production-specs.mjs).

const section = (page: Page) => page.getByRole('region', { name: words.heading });

/** The first window offered now, a morning. */
const firstWindow = (): SurveyWindow => ({ date: offeredDates(Date.now(), business.openingHours)[0]!, window: 'am' });

/**
 * A server of the test build of its own (its own port, database and outbox), optionally with its clock
 * started at `clock` (tests/support/test-clock.mjs): what a test that restarts the server, or needs a
 * day of the calendar, runs against.
 */
function siteOfItsOwn(portOffset: number, clock?: string) {
  const port = testPorts.site + portOffset;
  const base = `http://127.0.0.1:${port}`;
  const work = mkdtempSync(path.join(tmpdir(), 'homecare-survey-'));
  const databaseUrl = `file:${path.join(work, 'site.db')}`;
  const outbox = path.join(work, 'outbox');
  const env: Record<string, string> = {
    ...testBuildEnv,
    DATABASE_URL: databaseUrl,
    ENQUIRY_OUTBOX_DIR: outbox,
    ENQUIRY_PHOTOS_DIR: path.join(work, 'photos'),
    ENQUIRY_POLL_SECONDS: '0.2',
    ...(clock ? { TEST_CLOCK_START: clock, NODE_OPTIONS: `--import=${path.resolve('tests/support/test-clock.mjs')}` } : {}),
  };
  return {
    base,
    databaseUrl,
    outbox,
    start: () => startSiteServer({ port, env, readyPath: '/contact' }),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** A claim sent to `site` and its status page, opened by its link in a browser of its own. */
async function claimOn(browser: Browser, site: ReturnType<typeof siteOfItsOwn>, unique: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL: site.base, javaScriptEnabled });
  const sent = await sentEnquiry(context.request, unique, {}, { site: site.base, outboxDir: site.outbox });
  const page = await context.newPage();
  await page.goto(linkPath(sent.notification, '/track/'));
  await expect(page).toHaveURL(new RegExp(`/claims/${sent.reference}$`));
  if (javaScriptEnabled) await hydrated(page);
  return { page, sent };
}

const calendarDays = [
  {
    name: 'from a Friday afternoon, the first window is Monday’s morning, booked without JavaScript',
    clock: '2026-12-04T15:00:00Z',
    first: 'Monday 7 December, morning, 8am to 1pm',
    notOffered: 'Saturday 5 December, morning, 8am to 1pm',
    startsAt: '2026-12-07T08:00:00.000Z',
  },
  {
    name: 'St Andrew’s Day (Monday 30 November 2026, a Scottish bank holiday) is not offered: Tuesday is first',
    clock: '2026-11-27T15:00:00Z',
    first: 'Tuesday 1 December, morning, 8am to 1pm',
    notOffered: 'Monday 30 November, morning, 8am to 1pm',
    startsAt: '2026-12-01T08:00:00.000Z',
  },
  {
    name: 'around the clocks going back, Monday 26 October booked on Friday 23 October is 8am on the London clock',
    clock: '2026-10-23T14:00:00Z',
    first: 'Monday 26 October, morning, 8am to 1pm',
    notOffered: 'Friday 23 October, afternoon, 12pm to 5pm',
    // 08:00 GMT: the clocks went back on Sunday 25 October; the Friday was British Summer Time.
    startsAt: '2026-10-26T08:00:00.000Z',
  },
];

for (const [index, day] of calendarDays.entries()) {
  test(`on the server’s calendar: ${day.name}`, async ({ browser }) => {
    test.setTimeout(60_000);
    const site = siteOfItsOwn(61 + index, day.clock);
    const server = await site.start();
    try {
      const { page, sent } = await claimOn(browser, site, `survey-calendar-${index}-${Date.now()}`, index !== 0);
      const booking = section(page);
      await expect(booking.getByRole('radio').first()).toHaveAccessibleName(day.first);
      await expect(booking.getByRole('radio', { name: day.notOffered })).toHaveCount(0);
      await booking.getByRole('radio', { name: day.first }).check();
      await booking.getByRole('button', { name: words.button }).click();
      await expect(page.getByTestId('survey-booked')).toHaveText(words.booked(day.first));
      const invite = await page.request.get(`/claims/${sent.reference}/survey.ics`);
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(await invite.text())).getFirstSubcomponent('vevent')!);
      expect(event.startDate.toJSDate().toISOString()).toBe(day.startsAt);
      expect(event.attendees.map((attendee) => String(attendee.getFirstValue()).toLowerCase())).toEqual([`mailto:${sent.email}`]);
      expect(String(event.component.getFirstPropertyValue('organizer')).toLowerCase()).toBe(`mailto:${business.email}`);
      await page.context().close();
    } finally {
      await server.stop();
      site.remove();
    }
  });
}

test('the reminder survives a restart of the server between booking and its due time, and is sent once', async ({ browser }) => {
  test.setTimeout(120_000);
  const own = siteOfItsOwn(60);
  const { base, databaseUrl, outbox, start } = own;
  const reminders = (reference: string) =>
    outboxMessages(outbox)
      .map((raw) => parseMail(raw))
      .filter((mail) => mail.subject.startsWith('Reminder: your survey visit') && mail.subject.includes(reference));
  const reminderJobs = async () => {
    const db = openTestDatabase(databaseUrl);
    try {
      return (await db.execute("SELECT id, status, next_attempt_ms FROM enquiry_notifications WHERE kind = 'reminder'")).rows.map(
        (row) => ({
          ...row,
        }),
      );
    } finally {
      db.close();
    }
  };
  let site = await start();
  const context = await browser.newContext({ baseURL: base });
  try {
    const sent = await sentEnquiry(context.request, `survey-reminder-${Date.now()}`, {}, { site: base, outboxDir: outbox });
    const page = await context.newPage();
    await page.goto(linkPath(sent.notification, '/track/'));
    await hydrated(page);
    const slot = firstWindow();
    const booked = Date.now();
    await section(page)
      .getByRole('radio', { name: windowWords(slot) })
      .check();
    await section(page).getByRole('button', { name: words.button }).click();
    await expect(page.getByTestId('survey-booked')).toHaveText(words.booked(windowWords(slot)));

    // The reminder waits in the database for 18:00 on the working day before the visit: always ahead,
    // since the first window offered is on a day whose booking closes at 17:00 the working day before.
    const [job] = await reminderJobs();
    expect(job).toMatchObject({ status: 'pending' });
    const due = reminderDueAt(slot, booked, business.openingHours);
    expect(due).toBeGreaterThan(Date.now());
    expect(Number(job!.next_attempt_ms)).toBe(due);
    expect(await site.stop('SIGTERM')).toBe(0);

    // The server is down until the due time: the clock moved on to it (its due time set to now).
    const db = openTestDatabase(databaseUrl);
    await db.execute({ sql: 'UPDATE enquiry_notifications SET next_attempt_ms = ? WHERE id = ?', args: [Date.now(), Number(job!.id)] });
    db.close();
    site = await start();
    await expect.poll(() => reminders(sent.reference).length, { timeout: 15_000 }).toBe(1);
    const [reminder] = reminders(sent.reference);
    expect(reminder!.text).toContain(`This is a reminder of the survey visit for your claim ${sent.reference}: ${windowWords(slot)}.`);
    expect(reminder!.headers.to).toContain(sent.email);
    expect(await reminderJobs()).toEqual([expect.objectContaining({ status: 'sent' })]);

    // Restarted again: nothing is sent twice. A later enquiry's notification is the marker (the outbox
    // sends the oldest job due first, so a resent reminder would come before it).
    expect(await site.stop('SIGTERM')).toBe(0);
    site = await start();
    await sentEnquiry(context.request, `survey-reminder-marker-${Date.now()}`, {}, { site: base, outboxDir: outbox });
    expect(reminders(sent.reference)).toHaveLength(1);
  } finally {
    await context.close();
    await site.stop();
    own.remove();
  }
});
