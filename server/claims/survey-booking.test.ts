// Booking a survey against a real database: the windows offered with their places, the last place to
// exactly one of many pressing at once, blocks and the company's capacity, a form that books once, and
// the claim moved to "Survey booked" through the one stage-change path.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { eq } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import {
  claimStageChanges,
  enquiryNotifications,
  surveyAppointmentChanges,
  surveyAppointments,
  surveyBlocks,
  surveyCapacity,
  webhookEvents,
} from '@/server/base/db-schema';
import { webhookBody } from '@/server/crm/webhooks';
import { newFormToken } from '@/server/claims/claim-pages';
import { claimStatus } from '@/server/claims/claim-status';
import {
  bookSurvey,
  bookedAppointment,
  cancelSurvey,
  freeWindows,
  moveSurvey,
  recordNoAccess,
  SURVEY_MOVES_MAX,
  visitsOn,
  type BookingRequest,
} from '@/server/claims/survey-booking';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { instructionFields } from '@/tests/support/instruction';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { Mailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';

const hours = business.openingHours;
// Friday 4 December 2026, 15:00 GMT: Monday 7 December's windows are the first offered.
const NOW = Date.parse('2026-12-04T15:00:00Z');
const MONDAY_AM = { date: '2026-12-07', window: 'am' } as const;

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const claim = async () => (await submitEnquiryAt(db, NOW - 60 * 60_000)).id;
const request = (enquiryId: number, extra: Partial<BookingRequest> = {}): BookingRequest => ({
  enquiryId,
  stage: 'received',
  slot: MONDAY_AM,
  formToken: newFormToken(),
  now: NOW,
  hours,
  tellCrm: true,
  ...extra,
});

/** The customer's stage e-mails the outbox sends now, with their calendar parts. */
async function sentEmails(now = NOW): Promise<Mail.Options[]> {
  const sent: Mail.Options[] = [];
  const mailer: Mailer = {
    describe: 'test',
    send: async (message) => {
      sent.push(message);
      return { messageId: `<m${sent.length}@test>` };
    },
    close: () => undefined,
  };
  const outbox = createOutboxWorker({
    db,
    mailer,
    from: 'website@homecare.test',
    to: 'office@homecare.test',
    pollMs: 60_000,
    now: () => now,
    log: () => undefined,
  });
  while ((await outbox.runOnce()) > 0);
  return sent;
}

/** The e-mails the outbox sends now that carry a calendar part. */
const sentStageEmails = async (now = NOW) => (await sentEmails(now)).filter((message) => message.icalEvent);

describe('booking a survey', () => {
  it('offers each window of the next working days with its places, in words', async () => {
    const windows = await freeWindows(db, NOW, hours);
    expect(windows.slice(0, 2)).toEqual([
      { date: '2026-12-07', window: 'am', free: 2, words: 'Monday 7 December, morning, 8am to 1pm' },
      { date: '2026-12-07', window: 'pm', free: 2, words: 'Monday 7 December, afternoon, 12pm to 5pm' },
    ]);
    expect(windows).toHaveLength(30);
  });

  it('gives the last places of a window to exactly two of ten pressing at once, and tells the rest', async () => {
    const claims = await Promise.all(Array.from({ length: 10 }, () => claim()));
    const outcomes = await Promise.all(claims.map((id) => bookSurvey(db, request(id))));
    expect(outcomes.filter((outcome) => outcome.kind === 'booked')).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome.kind === 'refused' && outcome.reason === 'full')).toHaveLength(8);
    const left = await freeWindows(db, NOW, hours);
    expect(left[0]).toEqual({ date: '2026-12-07', window: 'pm', free: 2, words: 'Monday 7 December, afternoon, 12pm to 5pm' });
  });

  it('moves the claim to "Survey booked" with the window as its next date, tells the customer once and the CRM', async () => {
    const id = await claim();
    const token = newFormToken();
    const first = await bookSurvey(db, request(id, { formToken: token }));
    expect(first).toMatchObject({ kind: 'booked', appointment: { date: '2026-12-07', window: 'am', sequence: 0 } });
    // The same form posted again is the same booking, not a second one.
    expect(await bookSurvey(db, request(id, { formToken: token, stage: 'survey-booked' }))).toEqual(first);
    const status = await claimStatus(db, id);
    expect(status).toMatchObject({ stage: 'survey-booked', waitingOn: 'us', nextDate: '2026-12-07' });
    const changes = await orm(db).select().from(claimStageChanges);
    expect(changes).toEqual([
      expect.objectContaining({
        stage: 'survey-booked',
        source: 'customer',
        note: 'Survey visit: Monday 7 December, morning, 8am to 1pm.',
      }),
    ]);
    expect((await orm(db).select().from(enquiryNotifications)).filter((job) => job.kind === 'stage')).toHaveLength(1);
    expect((await orm(db).select().from(webhookEvents)).map((event) => event.type)).toContain('claim.updated');
    // A second booking for the same claim, from another form: it is booked already.
    expect(await bookSurvey(db, request(id, { stage: 'survey-booked', slot: { date: '2026-12-08', window: 'pm' } }))).toEqual({
      kind: 'refused',
      reason: 'already-booked',
    });
    expect((await bookedAppointment(db, id))?.uid).toMatch(/@survey\.homecare-web\.invalid$/);
  });

  it('sends the customer’s stage e-mail with the visit as a calendar invite, its MIME part’s method REQUEST', async () => {
    const id = await claim();
    await bookSurvey(db, request(id));
    const sent = await sentEmails();
    const stage = sent.find((message) => String(message.subject).includes('Survey booked'));
    expect(stage?.text).toContain('Survey visit: Monday 7 December, morning, 8am to 1pm.');
    expect(stage?.icalEvent).toMatchObject({ method: 'REQUEST', filename: 'survey.ics' });
    const invite = String((stage!.icalEvent as { content: string }).content);
    expect(invite).toContain('METHOD:REQUEST');
    expect(invite).toContain(`UID:${(await bookedAppointment(db, id))!.uid}`);
    // Only the stage e-mail carries it: the acknowledgement and the company's notification do not.
    expect(sent.filter((message) => message.icalEvent)).toHaveLength(1);
    // As a mail client reads it: the calendar part says the invite's method.
    const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(stage!);
    expect(String(built.message)).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
  });

  it('refuses a window not offered, blocked, or past the company’s capacity, never booking it', async () => {
    const id = await claim();
    for (const slot of [
      { date: '2026-12-04', window: 'pm' }, // today
      { date: '2026-12-05', window: 'am' }, // Saturday
      { date: '2027-03-01', window: 'am' }, // beyond 15 working days
    ] as const)
      expect(await bookSurvey(db, request(id, { slot })), slot.date).toEqual({ kind: 'refused', reason: 'not-offered' });

    await orm(db)
      .insert(surveyBlocks)
      .values({ date: '2026-12-07', window: null, reason: 'Training day', source: 'operator', createdMs: NOW });
    expect(await bookSurvey(db, request(id))).toEqual({ kind: 'refused', reason: 'blocked' });
    expect((await freeWindows(db, NOW, hours))[0]?.date).toBe('2026-12-08');

    await orm(db).insert(surveyCapacity).values({ fromDate: '2026-12-08', window: 'am', capacity: 0, source: 'operator', setMs: NOW });
    expect(await bookSurvey(db, request(id, { slot: { date: '2026-12-08', window: 'am' } }))).toEqual({ kind: 'refused', reason: 'full' });
    await orm(db).insert(surveyCapacity).values({ fromDate: '2026-12-09', window: null, capacity: 3, source: 'operator', setMs: NOW });
    const windows = await freeWindows(db, NOW, hours);
    expect(windows.find((each) => each.date === '2026-12-08' && each.window === 'am')).toBeUndefined();
    expect(windows.find((each) => each.date === '2026-12-09' && each.window === 'am')?.free).toBe(3);
    expect(await bookedAppointment(db, id)).toBeNull();
  });

  it('refuses once the claim is past the stages a survey is booked from', async () => {
    const id = await claim();
    expect(await bookSurvey(db, request(id, { stage: 'surveyed' }))).toEqual({ kind: 'refused', reason: 'stage' });
  });

  it('moves a visit to another window: same UID, SEQUENCE raised, the place given back, the moved invite e-mailed', async () => {
    const id = await claim();
    const { appointment: booked } = (await bookSurvey(db, request(id))) as { appointment: { uid: string } };
    const change = { enquiryId: id, now: NOW, hours, tellCrm: true };
    const tuesday = { date: '2026-12-08', window: 'pm' } as const;
    const moved = await moveSurvey(db, { ...change, slot: tuesday });
    expect(moved).toMatchObject({ kind: 'moved', appointment: { uid: booked.uid, sequence: 1, date: '2026-12-08', window: 'pm' } });
    // The same move again: done already, nothing recorded twice.
    expect(await moveSurvey(db, { ...change, slot: tuesday })).toEqual(moved);
    expect((await claimStatus(db, id))?.nextDate).toBe('2026-12-08');
    expect((await orm(db).select().from(claimStageChanges)).map((row) => row.note)).toEqual([
      'Survey visit: Monday 7 December, morning, 8am to 1pm.',
      'Survey visit moved to Tuesday 8 December, afternoon, 12pm to 5pm.',
    ]);
    expect((await freeWindows(db, NOW, hours))[0]).toMatchObject({ date: '2026-12-07', window: 'am', free: 2 });
    const invites = (await sentStageEmails()).map((message) => String((message.icalEvent as { content: string }).content));
    expect(invites).toHaveLength(2);
    expect(invites[1]).toContain(`UID:${booked.uid}`);
    expect(invites[1]).toContain('SEQUENCE:1');
    expect(invites[1]).toContain('METHOD:REQUEST');
  });

  it('moves a visit at most five times, never into a full window, and not once its day’s booking has closed', async () => {
    const id = await claim();
    await bookSurvey(db, request(id));
    const change = { enquiryId: id, now: NOW, hours, tellCrm: false };
    const days = ['2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11', '2026-12-14', '2026-12-15'];
    for (const date of days.slice(0, SURVEY_MOVES_MAX))
      expect((await moveSurvey(db, { ...change, slot: { date, window: 'am' } })).kind, date).toBe('moved');
    expect(await moveSurvey(db, { ...change, slot: { date: days[5]!, window: 'am' } })).toEqual({ kind: 'refused', reason: 'moves' });

    const other = await claim();
    await bookSurvey(db, request(other));
    await orm(db).insert(surveyCapacity).values({ fromDate: '2026-12-16', window: 'am', capacity: 0, source: 'operator', setMs: NOW });
    expect(await moveSurvey(db, { ...change, enquiryId: other, slot: { date: '2026-12-16', window: 'am' } })).toEqual({
      kind: 'refused',
      reason: 'full',
    });
    // After 17:00 on Friday, Monday's visit can no longer be changed on the site: the phone.
    const late = { ...change, enquiryId: other, now: Date.parse('2026-12-04T17:00:00Z') };
    expect(await moveSurvey(db, { ...late, slot: { date: '2026-12-09', window: 'pm' } })).toEqual({ kind: 'refused', reason: 'closed' });
    expect(await cancelSurvey(db, late)).toEqual({ kind: 'refused', reason: 'closed' });
  });

  it('the company moves a visit after the homeowner’s day has closed and past their five moves, never into a full window', async () => {
    const id = await claim();
    await bookSurvey(db, request(id));
    const change = { enquiryId: id, now: NOW, hours, tellCrm: false };
    const days = ['2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11', '2026-12-14'];
    for (const date of days) await moveSurvey(db, { ...change, slot: { date, window: 'am' } });
    expect(await moveSurvey(db, { ...change, slot: { date: '2026-12-15', window: 'am' } })).toEqual({ kind: 'refused', reason: 'moves' });
    // Monday 14th's booking closed at 17:00 on Friday 11th: the homeowner is told to call; the company moves it.
    const late = { ...change, now: Date.parse('2026-12-11T17:30:00Z') };
    const pm = { date: '2026-12-15', window: 'pm' } as const;
    expect(await moveSurvey(db, { ...late, slot: pm })).toEqual({ kind: 'refused', reason: 'closed' });
    expect(await moveSurvey(db, { ...late, slot: pm, madeBy: 'staff' })).toMatchObject({
      kind: 'moved',
      appointment: { ...pm, sequence: 6 },
    });
    const [moves] = await orm(db)
      .select({ moves: surveyAppointments.moves })
      .from(surveyAppointments)
      .where(eq(surveyAppointments.enquiryId, id));
    expect(moves).toEqual({ moves: SURVEY_MOVES_MAX });
    expect((await orm(db).select().from(claimStageChanges)).map((row) => [row.source, row.note]).at(-1)).toEqual([
      'staff',
      'We have moved your survey visit to Tuesday 15 December, afternoon, 12pm to 5pm.',
    ]);
    await orm(db).insert(surveyCapacity).values({ fromDate: '2026-12-16', window: 'am', capacity: 0, source: 'operator', setMs: NOW });
    expect(await moveSurvey(db, { ...late, slot: { date: '2026-12-16', window: 'am' }, madeBy: 'crm' })).toEqual({
      kind: 'refused',
      reason: 'full',
    });
    expect(await moveSurvey(db, { ...late, slot: { date: '2026-12-11', window: 'pm' }, madeBy: 'staff' })).toEqual({
      kind: 'refused',
      reason: 'not-offered',
    });
  });

  it('cancels a visit: the place back, the claim back to "Contacted" waiting on the customer, the invite’s cancellation e-mailed once', async () => {
    const id = await claim();
    const { appointment: booked } = (await bookSurvey(db, request(id))) as { appointment: { uid: string } };
    const invited = await sentStageEmails();
    const change = { enquiryId: id, now: NOW + 60_000, hours, tellCrm: true };
    const cancelled = await cancelSurvey(db, change);
    expect(cancelled).toMatchObject({ kind: 'cancelled', appointment: { uid: booked.uid, sequence: 1 } });
    expect(await cancelSurvey(db, change)).toMatchObject({ kind: 'cancelled', appointment: { uid: booked.uid } });
    expect(await claimStatus(db, id)).toMatchObject({ stage: 'contacted', waitingOn: 'customer', nextDate: null });
    expect(await bookedAppointment(db, id)).toBeNull();
    expect((await freeWindows(db, NOW, hours))[0]).toMatchObject({ date: '2026-12-07', window: 'am', free: 2 });
    const emails = [...invited, ...(await sentStageEmails(NOW + 60_000))];
    expect(emails.map((message) => (message.icalEvent as { method: string }).method)).toEqual(['REQUEST', 'CANCEL']);
    const cancellation = String((emails[1]!.icalEvent as { content: string }).content);
    expect(cancellation).toContain('METHOD:CANCEL');
    expect(cancellation).toContain(`UID:${booked.uid}`);
    expect(cancellation).toContain('SEQUENCE:1');
    // Booked again from "Contacted": a new visit with a UID of its own.
    const again = await bookSurvey(db, request(id, { stage: 'contacted', slot: { date: '2026-12-09', window: 'am' } }));
    expect(again).toMatchObject({ kind: 'booked', appointment: { sequence: 0 } });
    expect((again as { appointment: { uid: string } }).appointment.uid).not.toBe(booked.uid);
  });
});

describe('the reminder of a visit', () => {
  const reminders = async (now: number) => (await sentEmails(now)).filter((message) => String(message.subject).startsWith('Reminder:'));
  // Friday 4 December 2026, 18:00 GMT: the working day before Monday's visit.
  const FRIDAY_SIX = Date.parse('2026-12-04T18:00:00Z');

  it('goes at 18:00 on the working day before, from a worker started after the booking, and once', async () => {
    const id = await claim();
    expect((await bookSurvey(db, request(id))).kind).toBe('booked');
    expect(await reminders(NOW)).toEqual([]);
    expect(await reminders(FRIDAY_SIX - 1)).toEqual([]);
    // Each call is a new worker with its own clock, as after a restart of the server.
    const [reminder] = await reminders(FRIDAY_SIX);
    const { reference } = (await claimStatus(db, id))!;
    expect(reminder?.subject).toBe(`Reminder: your survey visit Monday 7 December, morning, 8am to 1pm (${reference}, ${business.name})`);
    expect(reminder?.text).toContain(
      `This is a reminder of the survey visit for your claim ${reference}: Monday 7 December, morning, 8am to 1pm.`,
    );
    expect(reminder?.text).toContain(`If you can no longer be there, please call us on ${business.phone.display} as soon as you can.`);
    expect(await reminders(FRIDAY_SIX + 5 * 60_000)).toEqual([]);
  });

  it('is not sent for a visit that moved (the moved visit gets its own) or was cancelled', async () => {
    const moved = await claim();
    const cancelled = await claim();
    await bookSurvey(db, request(moved));
    await bookSurvey(db, request(cancelled));
    expect(
      (await moveSurvey(db, { enquiryId: moved, slot: { date: '2026-12-08', window: 'pm' }, now: NOW, hours, tellCrm: false })).kind,
    ).toBe('moved');
    expect((await cancelSurvey(db, { enquiryId: cancelled, now: NOW, hours, tellCrm: false })).kind).toBe('cancelled');
    expect(await reminders(FRIDAY_SIX)).toEqual([]);
    // Monday 7 December, 18:00 GMT: the working day before Tuesday's visit.
    const [reminder, ...more] = await reminders(Date.parse('2026-12-07T18:00:00Z'));
    expect(more).toEqual([]);
    expect(reminder?.subject).toContain('Tuesday 8 December, afternoon, 12pm to 5pm');
    const pending = await orm(db).select().from(enquiryNotifications);
    expect(pending.filter((job) => job.kind === 'reminder').map((job) => [job.enquiryId, job.status])).toEqual([[moved, 'sent']]);
  });
});

describe('the CRM told of each change of the visit', () => {
  /** The appointment events queued, in order, with the bodies the webhook worker would send. */
  async function appointmentEvents() {
    const events = await orm(db).select().from(webhookEvents);
    const told = events.filter((event) => event.type.startsWith('appointment.'));
    return Promise.all(
      told.map(async (event) => JSON.parse((await webhookBody(db, event, 'https://www.example.com', NOW))!) as Record<string, unknown>),
    );
  }

  it('appointment.booked, .moved and .cancelled, each with the window it left the visit at, its UID and SEQUENCE', async () => {
    const id = await claim();
    const { reference } = (await claimStatus(db, id))!;
    await bookSurvey(db, request(id));
    await moveSurvey(db, { enquiryId: id, slot: { date: '2026-12-08', window: 'pm' }, now: NOW + 60_000, hours, tellCrm: true });
    await cancelSurvey(db, { enquiryId: id, now: NOW + 120_000, hours, tellCrm: true });
    const uid = (await orm(db).select({ uid: surveyAppointments.uid }).from(surveyAppointments))[0]!.uid;
    const [booked, moved, cancelled, ...more] = await appointmentEvents();
    expect(more).toEqual([]);
    expect(booked).toEqual({
      type: 'appointment.booked',
      version: 1,
      timestamp: '2026-12-04T15:00:00.000Z',
      data: {
        reference,
        date: '2026-12-07',
        window: 'am',
        windowWords: 'Monday 7 December, morning, 8am to 1pm',
        startsAt: '2026-12-07T08:00:00.000Z',
        endsAt: '2026-12-07T13:00:00.000Z',
        uid,
        sequence: 0,
        madeBy: 'customer',
        changedAt: '2026-12-04T15:00:00.000Z',
      },
    });
    expect(moved).toMatchObject({
      type: 'appointment.moved',
      data: { date: '2026-12-08', window: 'pm', startsAt: '2026-12-08T12:00:00.000Z', uid, sequence: 1 },
    });
    expect(cancelled).toMatchObject({ type: 'appointment.cancelled', data: { date: '2026-12-08', window: 'pm', uid, sequence: 2 } });
  });

  it('tells nothing when the CRM is not told, and records each change all the same', async () => {
    const id = await claim();
    await bookSurvey(db, request(id, { tellCrm: false }));
    expect(await appointmentEvents()).toEqual([]);
    expect((await orm(db).select().from(surveyAppointmentChanges)).map((change) => [change.action, change.madeBy])).toEqual([
      ['booked', 'customer'],
    ]);
  });
});

describe('the company’s changes of a visit', () => {
  it('"no access": the claim back to Contacted waiting on the customer, asked by e-mail to book again, the CRM told', async () => {
    const id = await claim();
    await bookSurvey(db, request(id));
    // Monday 7 December, 10:30: the surveyor is at the door.
    const monday = Date.parse('2026-12-07T10:30:00Z');
    const outcome = await recordNoAccess(db, { enquiryId: id, now: monday, tellCrm: true, madeBy: 'staff' });
    expect(outcome).toMatchObject({ kind: 'recorded', appointment: { date: '2026-12-07', window: 'am', sequence: 1 } });
    expect(await bookedAppointment(db, id)).toBeNull();
    expect(await claimStatus(db, id, { now: monday })).toMatchObject({ stage: 'contacted', waitingOn: 'customer', nextDate: null });
    const sent = (await sentEmails(monday)).filter((message) => String(message.subject).includes(': Contacted'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).toContain(
      "Our surveyor could not get in on Monday 7 December, morning, 8am to 1pm. Please book another time on the claim's page, or call us.",
    );
    const events = await orm(db).select().from(webhookEvents);
    expect(events.map((event) => event.type).filter((type) => type.startsWith('appointment.'))).toEqual([
      'appointment.booked',
      'appointment.no_access',
    ]);
    // Pressed again: nothing is booked, nothing changes.
    expect(await recordNoAccess(db, { enquiryId: id, now: monday, tellCrm: true, madeBy: 'staff' })).toEqual({
      kind: 'refused',
      reason: 'none',
    });
    // The homeowner books again from "Contacted".
    expect((await freeWindows(db, monday, hours))[0]?.date).toBe('2026-12-08');
  });

  it('cancels a visit after its day has closed to the homeowner, and says it was the company', async () => {
    const id = await claim();
    await bookSurvey(db, request(id));
    const saturday = Date.parse('2026-12-05T09:00:00Z');
    expect(await cancelSurvey(db, { enquiryId: id, now: saturday, hours, tellCrm: false })).toEqual({ kind: 'refused', reason: 'closed' });
    const outcome = await cancelSurvey(db, { enquiryId: id, now: saturday, hours, tellCrm: false, madeBy: 'staff' });
    expect(outcome.kind).toBe('cancelled');
    const [change] = (await orm(db).select().from(claimStageChanges)).filter((row) => row.stage === 'contacted');
    expect(change).toMatchObject({
      source: 'staff',
      note: "We have cancelled the survey visit on Monday 7 December, morning, 8am to 1pm. Please book another time on the claim's page, or call us.",
    });
  });

  it('lists the visits booked on given days, by window, with the addresses the claims gave', async () => {
    const first = (await submitEnquiryAt(db, NOW - 60 * 60_000, instructionFields('claims@insurer.example'))).id;
    const second = await claim();
    await bookSurvey(db, request(first, { slot: { date: '2026-12-07', window: 'pm' } }));
    await bookSurvey(db, request(second));
    const visits = await visitsOn(db, ['2026-12-07', '2026-12-08']);
    expect(visits.map(({ window, words, address, postcode }) => ({ window, words, address, postcode }))).toEqual([
      { window: 'am', words: 'Monday 7 December, morning, 8am to 1pm', address: null, postcode: null },
      { window: 'pm', words: 'Monday 7 December, afternoon, 12pm to 5pm', address: '1 High Street\nKilsyth', postcode: 'G65 0AA' },
    ]);
  });
});
