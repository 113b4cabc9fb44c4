// A drying record built the way a real claim builds it, the CRM's events and the staff page mixed: a
// machine is one machine whichever side speaks of it, a staff visit changes only what it changes, a
// form token already used says so, and a wet reading after `dried` moves the claim back to drying.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staffVisitText } from '@/content/drying';
import { staffPage } from '@/content/staff-page';
import { changesMachine, sameMachineToTheMinute, type EquipmentInput } from '@/lib/drying';
import { parseDecimal } from '@/lib/drying-form';
import { enquiryReference } from '@/lib/enquiry-reference';
import { wallClock } from '@/lib/zone-clock';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { claimStatus } from '@/server/claims/claim-status';
import { machinesOf, recordDryingVisit } from '@/server/claims/drying/record';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

describe('numbers typed on the staff page', () => {
  it('take a point for decimals and a comma only between thousands', () => {
    expect(parseDecimal('1,250')).toBe(1250);
    expect(parseDecimal('12.5')).toBe(12.5);
    expect(parseDecimal('1,250.5')).toBe(1250.5);
    expect(parseDecimal('12,345,678')).toBe(12_345_678);
    expect(parseDecimal(' 40 ')).toBe(40);
    expect(parseDecimal('')).toBeUndefined();
    for (const ambiguous of ['12,5', '1,25', '1,2500', ',5', '1,,250']) expect(parseDecimal(ambiguous)).toBe('comma');
    expect(parseDecimal('twelve')).toBeNaN();
  });
});

describe('one machine', () => {
  const crm = { kind: 'dehumidifier', model: 'Ebac BD150', on: '2026-12-03T15:00:30.000Z' };
  it('typed to the minute is the one recorded to the second within it, of the same kind and model', () => {
    expect(sameMachineToTheMinute({ ...crm, model: ' ebac bd150 ', on: '2026-12-03T15:00:00.000Z' }, crm)).toBe(true);
    expect(sameMachineToTheMinute({ ...crm, on: '2026-12-03T15:01:00.000Z' }, crm)).toBe(false);
    expect(sameMachineToTheMinute({ ...crm, kind: 'heater', on: '2026-12-03T15:00:00.000Z' }, crm)).toBe(false);
    expect(sameMachineToTheMinute({ ...crm, model: 'Ebac BD70', on: '2026-12-03T15:00:00.000Z' }, crm)).toBe(false);
    // An hour apart is another machine, except in the hour the London clock shows twice.
    expect(sameMachineToTheMinute({ ...crm, on: '2026-12-03T14:00:00.000Z' }, crm)).toBe(false);
    const secondHalfThirty = { ...crm, on: '2026-10-25T01:30:00Z' };
    expect(sameMachineToTheMinute({ ...crm, on: '2026-10-25T00:30:00.000Z' }, secondHalfThirty)).toBe(true);
  });

  it('is changed by a row only where the row says so', () => {
    const stored = { count: 2 };
    expect(changesMachine({ id: 1, count: 2, off: null, kwh: null }, stored)).toBe(false);
    expect(changesMachine({ id: 1, count: null, off: null, kwh: null }, stored)).toBe(false);
    expect(changesMachine({ id: 1, count: 1, off: null, kwh: null }, stored)).toBe(true);
    expect(changesMachine({ id: 1, count: 2, off: '2026-12-03T15:00:00Z', kwh: null }, stored)).toBe(true);
    expect(changesMachine({ id: 1, count: 2, off: null, kwh: 0 }, stored)).toBe(true);
  });
});

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  await submitEnquiry(db, { subject: 'Burst pipe', message: 'Water through the kitchen ceiling.' });
});
afterEach(() => cleanup());

const id = 1;
const reference = enquiryReference(id);
const HOUR = 3_600_000;
const london = (ms: number) => {
  const clock = wallClock(ms, 'Europe/London');
  return `${clock.date}T${String(clock.hour).padStart(2, '0')}:${String(clock.minute).padStart(2, '0')}`;
};

/** The claim received at `received`, the staff page's clock at `now`. */
async function claim(received: number, now: number) {
  await db.execute({
    sql: 'UPDATE enquiries SET received_ms = ?, received_at = ? WHERE id = ?',
    args: [received, new Date(received).toISOString(), id],
  });
  const pages = createClaimPages({ db: async () => db, now: () => now, tellCrm: false });
  const staff = (await claimSessionValue(db, 'update', id, now))!;
  return { pages, staff };
}

const machine = (on: string, extra: Partial<EquipmentInput> = {}): EquipmentInput => ({
  kind: 'dehumidifier',
  model: 'Ebac BD150',
  watts: 700,
  count: 1,
  on,
  off: null,
  kwh: null,
  ...extra,
});
const fromCrm = (visitAt: number, equipment: EquipmentInput[], eventId: string, readings = [{ value: 28, goal: 12 }]) =>
  recordDryingVisit(
    db,
    id,
    {
      reference,
      visitAt: new Date(visitAt).toISOString(),
      readings: readings.map(({ value, goal }) => ({ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value, goal })),
      equipment,
    },
    { source: 'crm', eventId, now: visitAt },
  );

/** The visit form as the staff page serves it: a row per running machine (by id, its count), then `rows`. */
async function servedForm(visitAt: number, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set('formToken', newFormToken());
  form.set('visitAt', london(visitAt));
  const running = (await machinesOf(db, id)).filter((stored) => stored.off === null);
  running.forEach((stored, row) => {
    form.set(`equipment.${row}.id`, String(stored.id));
    form.set(`equipment.${row}.count`, String(stored.count));
    form.set(`equipment.${row}.off`, '');
    form.set(`equipment.${row}.kwh`, '');
  });
  for (const [name, value] of Object.entries(fields)) form.set(name, value.replace('{next}', String(running.length)));
  return { form, running };
}
const reading = (value: string, goal = '12') => ({
  'readings.0.location': 'Kitchen wall',
  'readings.0.material': 'plaster',
  'readings.0.scale': 'wme',
  'readings.0.value': value,
  'readings.0.goal': goal,
});

describe('a staff visit after the CRM’s', () => {
  const RECEIVED = Date.parse('2026-12-02T09:00:00Z');
  const ON = '2026-12-03T15:00:30.000Z';
  const NOW = Date.parse('2026-12-10T12:00:00Z');

  it('leaves a machine recorded to the second, with its meter’s kWh, as one machine', async () => {
    const { pages, staff } = await claim(RECEIVED, NOW);
    expect(await fromCrm(Date.parse(ON), [machine(ON, { kwh: 40 })], 'msg_1')).toBe('recorded');
    const { form } = await servedForm(NOW - HOUR, reading('20'));
    expect(await pages.recordVisit(reference, staff, form)).toMatchObject({ kind: 'saved', message: staffVisitText.saved(1, 0) });
    // The same machine typed again as a new one, to the minute: recognised, its kWh kept.
    const typed = await servedForm(NOW - HOUR / 2, {
      ...reading('18'),
      'equipment.{next}.kind': 'dehumidifier',
      'equipment.{next}.model': 'Ebac BD150',
      'equipment.{next}.watts': '700',
      'equipment.{next}.count': '1',
      'equipment.{next}.on': london(Date.parse(ON)),
      'equipment.{next}.off': '',
      'equipment.{next}.kwh': '',
    });
    expect(await pages.recordVisit(reference, staff, typed.form)).toMatchObject({ kind: 'saved' });
    expect(await machinesOf(db, id)).toEqual([expect.objectContaining({ on: ON, off: null, kwh: 40, count: 1 })]);
    // A meter read in thousands: "1,250" is 1250 kWh; "12,5" is refused, naming the field.
    const metered = await servedForm(NOW - HOUR / 4, { 'equipment.0.kwh': '1,250' });
    expect(await pages.recordVisit(reference, staff, metered.form)).toMatchObject({ kind: 'saved', message: staffVisitText.saved(0, 1) });
    expect((await machinesOf(db, id))[0]?.kwh).toBe(1250);
    // A machine id that is not this claim's, or one listed twice: the page is out of date, nothing recorded.
    const stranger = await servedForm(NOW - HOUR / 8, { 'equipment.0.id': '9999', 'equipment.0.off': london(NOW - HOUR / 8) });
    expect(await pages.recordVisit(reference, staff, stranger.form)).toMatchObject({
      kind: 'refused',
      message: staffVisitText.unknownMachine,
    });
    const twice = await servedForm(NOW - HOUR / 8, {
      'equipment.1.id': String(stranger.running[0]!.id),
      'equipment.1.off': london(NOW - HOUR / 8),
    });
    expect(await pages.recordVisit(reference, staff, twice.form)).toMatchObject({ kind: 'refused', message: staffVisitText.machineTwice });
    expect((await machinesOf(db, id))[0]?.off).toBeNull();
    const comma = await servedForm(NOW - HOUR / 8, reading('12,5'));
    expect(await pages.recordVisit(reference, staff, comma.form)).toMatchObject({
      kind: 'refused',
      message: staffVisitText.invalid,
      errors: { 'readings.0.value': staffVisitText.fieldError(staffVisitText.labels.value, staffVisitText.badComma) },
    });
  });

  it('with 21 machines running switches one off, leaving the others as they were; a form left as served records nothing', async () => {
    const { pages, staff } = await claim(RECEIVED, NOW);
    const ons = Array.from({ length: 21 }, (_, n) => new Date(Date.parse(ON) + n * 1000).toISOString());
    expect(
      await fromCrm(
        Date.parse(ON),
        ons.slice(0, 20).map((on) => machine(on)),
        'msg_1',
      ),
    ).toBe('recorded');
    expect(await fromCrm(Date.parse(ON) + 60_000, [machine(ons[20]!, { kwh: 3 })], 'msg_2')).toBe('recorded');
    const before = await machinesOf(db, id);
    expect(before).toHaveLength(21);

    const unchanged = await servedForm(NOW - HOUR);
    expect(await pages.recordVisit(reference, staff, unchanged.form)).toMatchObject({
      kind: 'refused',
      message: staffVisitText.nothingChanged,
    });

    // Every machine changed at once is more than a visit takes.
    const all = await servedForm(NOW - HOUR / 2);
    all.running.forEach((_, row) => all.form.set(`equipment.${row}.count`, '2'));
    expect(await pages.recordVisit(reference, staff, all.form)).toMatchObject({
      kind: 'refused',
      message: staffVisitText.tooManyMachines(20),
    });
    const offAt = NOW - 2 * HOUR;
    const one = await servedForm(NOW - HOUR, { 'equipment.7.off': london(offAt) });
    expect(await pages.recordVisit(reference, staff, one.form)).toMatchObject({ kind: 'saved', message: staffVisitText.saved(0, 1) });
    const after = await machinesOf(db, id);
    expect(after.filter((stored) => stored.off !== null)).toEqual([{ ...before[7]!, off: new Date(offAt).toISOString() }]);
    expect(after.filter((stored) => stored.off === null)).toEqual(before.filter((_, n) => n !== 7));
  });
});

describe('the hour the clocks go back', () => {
  it('a machine the CRM recorded at the second 01:30 is still one machine after a staff visit', async () => {
    const NOW = Date.parse('2026-10-26T12:00:00Z');
    const { pages, staff } = await claim(Date.parse('2026-10-24T09:00:00Z'), NOW);
    // 01:30 GMT, the second time the London clock shows 01:30 that night.
    const ON = '2026-10-25T01:30:00.000Z';
    expect(await fromCrm(Date.parse(ON), [machine(ON)], 'msg_1')).toBe('recorded');
    const served = await servedForm(NOW - HOUR, reading('20'));
    expect(await pages.recordVisit(reference, staff, served.form)).toMatchObject({ kind: 'saved', message: staffVisitText.saved(1, 0) });
    const typed = await servedForm(NOW - HOUR / 2, {
      ...reading('18'),
      'equipment.{next}.kind': 'dehumidifier',
      'equipment.{next}.model': 'Ebac BD150',
      'equipment.{next}.watts': '700',
      'equipment.{next}.count': '1',
      'equipment.{next}.on': '2026-10-25T01:30',
    });
    expect(await pages.recordVisit(reference, staff, typed.form)).toMatchObject({ kind: 'saved' });
    expect(await machinesOf(db, id)).toEqual([expect.objectContaining({ on: ON, off: null })]);
  });
});

describe('a wet reading after dried', () => {
  const RECEIVED = Date.parse('2026-12-02T09:00:00Z');
  const NOW = Date.parse('2026-12-10T12:00:00Z');

  it('asks to confirm, then moves the claim back to drying at the visit’s time, telling the customer once', async () => {
    const { pages, staff } = await claim(RECEIVED, NOW);
    expect(await fromCrm(NOW - 48 * HOUR, [], 'msg_1', [{ value: 11, goal: 12 }])).toBe('recorded');
    const dried = new FormData();
    dried.set('formToken', newFormToken());
    dried.set('stage', 'dried');
    dried.set('confirmedBy', 'Sam Fitter');
    const earlier = createClaimPages({ db: async () => db, now: () => NOW - 2 * HOUR, tellCrm: false });
    expect(await earlier.saveUpdate(reference, staff, dried)).toMatchObject({ kind: 'saved' });

    const wet = await servedForm(NOW - HOUR, reading('15'));
    expect(await pages.recordVisit(reference, staff, wet.form)).toMatchObject({
      kind: 'refused',
      message: staffVisitText.confirmWetNeeded,
      errors: { confirmWet: staffVisitText.confirmWetNeeded, 'readings.0.value': staffVisitText.wetWarning('12') },
    });
    expect((await claimStatus(db, id))?.stage).toBe('dried');
    wet.form.set('confirmWet', 'on');
    expect(await pages.recordVisit(reference, staff, wet.form)).toEqual(
      expect.objectContaining({ kind: 'saved', message: `${staffVisitText.saved(1, 0)} ${staffVisitText.reopened}` }),
    );
    const status = await claimStatus(db, id);
    expect(status?.stage).toBe('drying');
    expect(status?.timeline.at(-1)).toEqual({
      stage: 'drying',
      at: new Date(NOW - HOUR).toISOString(),
      note: staffVisitText.reopenNote('Kitchen wall, plaster'),
    });
    const changes = await db.execute("SELECT stage, event_id FROM claim_stage_changes WHERE event_id LIKE 'reading-above-goal:%'");
    expect(changes.rows.map((row) => row.stage)).toEqual(['drying']);
    expect((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'stage'")).rows[0]?.n).toBe(2);
    // A later visit's reading above its goal, from the CRM, while already drying: no further change.
    expect(await fromCrm(NOW - HOUR / 2, [], 'msg_2', [{ value: 14, goal: 12 }])).toBe('recorded');
    expect((await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n).toBe(2);
  });

  it('a form sent again after a reading moved the claim back says it changed nothing', async () => {
    const { pages, staff } = await claim(RECEIVED, NOW);
    const served = await servedForm(NOW - HOUR, reading('15'));
    expect(await pages.recordVisit(reference, staff, served.form)).toMatchObject({ kind: 'saved' });
    served.form.set('readings.0.value', '9');
    expect(await pages.recordVisit(reference, staff, served.form)).toMatchObject({
      kind: 'refused',
      message: staffPage.alreadySent(london(NOW).slice(11), staffVisitText.firstVisit('10 Dec, 11:00', 1)),
    });
    expect((await db.execute('SELECT value FROM drying_readings')).rows.map((row) => row.value)).toEqual([15]);
  });
});
