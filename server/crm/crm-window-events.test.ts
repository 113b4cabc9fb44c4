// POST /api/crm/events with `appointments.capacity` and `appointments.blocked` against a real database,
// with real signatures: the company's survey windows set from its CRM, once per event; and a visit
// moved or ended by the CRM (`appointment.moved`, `appointment.no_access`, `appointment.cancelled`).
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { newFormToken } from '@/server/claims/claim-pages';
import { bookSurvey, bookedAppointment, freeWindows, windowStandings } from '@/server/claims/survey-booking';
import { createCrmEventsHandler } from '@/server/crm/crm-events';
import { claimStatus } from '@/server/claims/claim-status';
import { orm } from '@/server/base/db';
import { claimStageChanges, surveyAppointmentChanges } from '@/server/base/db-schema';
import { crmEventRequest, testCrmEventsSecret } from '@/tests/support/crm-event';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiryAt } from '@/tests/support/digest-store';

// Friday 4 December 2026, 15:00 GMT: Monday 7 December's windows are the first offered.
const NOW = Date.parse('2026-12-04T15:00:00Z');
const hours = business.openingHours;

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const handle = (type: string, data: Record<string, unknown>, id?: string) =>
  createCrmEventsHandler({ secret: testCrmEventsSecret, db: async () => db, now: () => NOW })(
    crmEventRequest(type, data, { id, signedAt: NOW, happened: new Date(NOW - 60_000) }),
  );

describe('the survey windows set by the CRM', () => {
  it('appointments.capacity: each window, or the one named, takes that many visits from the date on; a resent event applies once', async () => {
    expect(await handle('appointments.capacity', { from: '2026-12-08', capacity: 3 }, 'msg_capacity_1')).toEqual({
      status: 200,
      body: { success: true, applied: true },
    });
    expect(await handle('appointments.capacity', { from: '2026-12-08', window: 'pm', capacity: 0 }, 'msg_capacity_2')).toMatchObject({
      status: 200,
    });
    expect(await handle('appointments.capacity', { from: '2026-12-08', capacity: 3 }, 'msg_capacity_1')).toEqual({
      status: 200,
      body: { success: true, applied: false },
    });
    const standings = await windowStandings(db, ['2026-12-07', '2026-12-08']);
    expect(standings.map((each) => [each.date, each.window, each.capacity])).toEqual([
      ['2026-12-07', 'am', 2],
      ['2026-12-07', 'pm', 2],
      ['2026-12-08', 'am', 3],
      ['2026-12-08', 'pm', 0],
    ]);
    expect((await freeWindows(db, NOW, hours)).some((each) => each.date === '2026-12-08' && each.window === 'pm')).toBe(false);
  });

  it('appointments.blocked: the day is not offered, and the visits booked in it are counted for the company to move', async () => {
    const enquiry = await submitEnquiryAt(db, NOW - 60 * 60_000);
    const booked = await bookSurvey(db, {
      enquiryId: enquiry.id,
      stage: 'received',
      slot: { date: '2026-12-07', window: 'am' },
      formToken: newFormToken(),
      now: NOW,
      hours,
      tellCrm: false,
    });
    expect(booked.kind).toBe('booked');
    expect(await handle('appointments.blocked', { date: '2026-12-07', reason: 'Van in for its MOT' }, 'msg_block_1')).toEqual({
      status: 200,
      body: { success: true, applied: true, bookedInIt: 1 },
    });
    expect(await handle('appointments.blocked', { date: '2026-12-07', reason: 'Van in for its MOT' }, 'msg_block_1')).toEqual({
      status: 200,
      body: { success: true, applied: false, bookedInIt: 1 },
    });
    expect((await freeWindows(db, NOW, hours))[0]?.date).toBe('2026-12-08');
    expect((await windowStandings(db, ['2026-12-07']))[0]).toMatchObject({ booked: 1, left: 0, blocked: 'Van in for its MOT' });
  });

  it('refuses what npm run appointments refuses, naming each field, and changes nothing', async () => {
    const refused = (errors: { path: string; msg: string }[]) => ({
      status: 400,
      body: { success: false, message: 'The event is not a change of the survey windows this site takes.', errors },
    });
    expect(await handle('appointments.capacity', { from: '8 December', window: 'evening', capacity: 21 })).toEqual(
      refused([
        { path: 'data.window', msg: 'must be "am", "pm" or null (both)' },
        { path: 'data.from', msg: 'must be a date in the form 2026-12-01' },
        { path: 'data.capacity', msg: 'must be a whole number of visits from 0 to 20' },
      ]),
    );
    expect(await handle('appointments.blocked', { date: '2026-12-05', reason: '' })).toEqual(
      refused([
        { path: 'data.date', msg: 'must be a working day: no window is offered on it' },
        { path: 'data.reason', msg: 'must be text of 1 to 200 characters' },
      ]),
    );
    expect(await handle('appointments.blocked', { date: '2026-12-07', reason: 'x'.repeat(201) })).toMatchObject({ status: 400 });
    expect((await freeWindows(db, NOW, hours))[0]).toMatchObject({ date: '2026-12-07', window: 'am', free: 2 });
  });
});

describe('a survey visit ended by the CRM', () => {
  async function bookedClaim() {
    const enquiry = await submitEnquiryAt(db, NOW - 60 * 60_000);
    await bookSurvey(db, {
      enquiryId: enquiry.id,
      stage: 'received',
      slot: { date: '2026-12-07', window: 'am' },
      formToken: newFormToken(),
      now: NOW,
      hours,
      tellCrm: false,
    });
    return enquiry;
  }

  it('appointment.no_access: the claim back to Contacted, waiting on the customer; once per event; 409 with no visit booked', async () => {
    const { id, reference } = await bookedClaim();
    expect(await handle('appointment.no_access', { reference }, 'msg_out_1')).toEqual({
      status: 200,
      body: { success: true, applied: true },
    });
    expect(await handle('appointment.no_access', { reference }, 'msg_out_1')).toEqual({
      status: 200,
      body: { success: true, applied: false },
    });
    expect(await claimStatus(db, id, { now: NOW })).toMatchObject({ stage: 'contacted', waitingOn: 'customer' });
    expect((await orm(db).select().from(surveyAppointmentChanges)).map((change) => [change.action, change.madeBy])).toEqual([
      ['booked', 'customer'],
      ['no-access', 'crm'],
    ]);
    expect(await handle('appointment.no_access', { reference }, 'msg_out_2')).toEqual({
      status: 409,
      body: {
        success: false,
        message: `The claim ${reference} has no survey visit booked.`,
        errors: [{ path: 'data.reference', msg: 'has no survey visit booked' }],
      },
    });
  });

  it('appointment.moved: the visit in the new window, SEQUENCE raised, the customer told; once per event; 409 for a window that cannot take it', async () => {
    const { id, reference } = await bookedClaim();
    const moved = await handle('appointment.moved', { reference, date: '2026-12-09', window: 'pm' }, 'msg_move_1');
    expect(moved).toEqual({ status: 200, body: { success: true, applied: true } });
    expect(await handle('appointment.moved', { reference, date: '2026-12-09', window: 'pm' }, 'msg_move_1')).toEqual({
      status: 200,
      body: { success: true, applied: false },
    });
    expect(await bookedAppointment(db, id)).toMatchObject({ date: '2026-12-09', window: 'pm', sequence: 1 });
    expect(await claimStatus(db, id, { now: NOW })).toMatchObject({ stage: 'survey-booked', nextDate: '2026-12-09' });
    expect((await orm(db).select().from(claimStageChanges)).map((change) => [change.source, change.note]).at(-1)).toEqual([
      'crm',
      'We have moved your survey visit to Wednesday 9 December, afternoon, 12pm to 5pm.',
    ]);
    expect((await orm(db).select().from(surveyAppointmentChanges)).map((change) => [change.action, change.madeBy])).toEqual([
      ['booked', 'customer'],
      ['moved', 'crm'],
    ]);

    expect(await handle('appointments.capacity', { from: '2026-12-10', window: 'am', capacity: 0 }, 'msg_move_cap')).toMatchObject({
      status: 200,
    });
    expect(await handle('appointment.moved', { reference, date: '2026-12-10', window: 'am' }, 'msg_move_2')).toEqual({
      status: 409,
      body: {
        success: false,
        message: 'The window 2026-12-10 am has no place left.',
        errors: [{ path: 'data.date', msg: 'has no place left' }],
      },
    });
    // Today (Friday) is never offered; a Saturday is not a working day.
    for (const date of ['2026-12-04', '2026-12-05'])
      expect(await handle('appointment.moved', { reference, date, window: 'am' }, `msg_move_${date}`)).toMatchObject({
        status: 409,
        body: { errors: [{ path: 'data.date', msg: expect.stringContaining('is not offered') }] },
      });
    for (const data of [
      { reference, date: '2026-12-09', window: 'evening' },
      { reference, date: '9 December', window: 'am' },
      { reference },
    ])
      expect(await handle('appointment.moved', data)).toMatchObject({ status: 400, body: { errors: [{ path: 'data.date' }] } });
    expect(await bookedAppointment(db, id)).toMatchObject({ date: '2026-12-09', window: 'pm', sequence: 1 });
  });

  it('appointment.cancelled: the place given back, whenever the company cancels', async () => {
    const { reference } = await bookedClaim();
    expect(await handle('appointment.cancelled', { reference }, 'msg_cancel_1')).toEqual({
      status: 200,
      body: { success: true, applied: true },
    });
    expect((await freeWindows(db, NOW, hours))[0]).toMatchObject({ date: '2026-12-07', window: 'am', free: 2 });
    expect(await handle('appointment.cancelled', { reference: 'not a reference' })).toMatchObject({ status: 400 });
  });
});
