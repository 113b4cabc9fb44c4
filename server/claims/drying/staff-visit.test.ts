// The staff page's "Record a visit" against a real database: the form becomes the same visit the CRM's
// event carries, checked by the same rules, recorded once per form token.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staffVisitText } from '@/content/drying';
import { staffPage } from '@/content/staff-page';
import { enquiryReference } from '@/lib/enquiry-reference';
import { wallClock } from '@/lib/zone-clock';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { dryingRecordOf } from '@/server/claims/drying/record';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const HOUR = 3_600_000;
/** A `datetime-local` value on the London clock, as a browser sends it. */
const london = (ms: number) => {
  const clock = wallClock(ms, 'Europe/London');
  return `${clock.date}T${String(clock.hour).padStart(2, '0')}:${String(clock.minute).padStart(2, '0')}`;
};
const dayTime = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Europe/London',
  }).format(ms);
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};
const blankReading = (row: number) => ({
  [`readings.${row}.location`]: '',
  [`readings.${row}.material`]: 'plaster',
  [`readings.${row}.scale`]: 'wme',
  [`readings.${row}.value`]: '',
  [`readings.${row}.goal`]: '',
});

describe('the staff page’s Record a visit', () => {
  it('records the readings and machines entered, once per form token; a later visit switches a machine off', async () => {
    await submitEnquiry(db, { subject: 'Burst pipe', message: 'Water through the kitchen ceiling.' });
    const id = 1;
    const reference = enquiryReference(id);
    const now = Date.now();
    const pages = createClaimPages({ db: async () => db, now: () => now });
    const staff = (await claimSessionValue(db, 'update', id, now))!;
    const on = Math.floor((now - 48 * HOUR) / 60_000) * 60_000;

    const first = form({
      formToken: newFormToken(),
      visitAt: london(on),
      'readings.0.location': 'Kitchen wall',
      'readings.0.material': 'plaster',
      'readings.0.scale': 'wme',
      'readings.0.value': '28',
      'readings.0.goal': '12',
      ...blankReading(1),
      'equipment.0.kind': 'dehumidifier',
      'equipment.0.model': 'Ebac BD150',
      'equipment.0.watts': '700',
      'equipment.0.count': '1',
      'equipment.0.on': london(on),
      'equipment.0.off': '',
      'equipment.0.kwh': '',
      'equipment.1.kind': 'dehumidifier',
      'equipment.1.model': '',
    });
    expect(await pages.recordVisit(reference, staff, first)).toMatchObject({ kind: 'saved', message: staffVisitText.saved(1, 1) });
    // Sent again (the Back button, say), with another reading: nothing more is recorded, and the answer says so.
    first.set('readings.0.value', '30');
    expect(await pages.recordVisit(reference, staff, first)).toMatchObject({
      kind: 'refused',
      message: staffPage.alreadySent(london(now).slice(11), staffVisitText.firstVisit(dayTime(on), 1)),
    });
    expect((await dryingRecordOf(db, id)).readings).toEqual([
      { visitAt: new Date(on).toISOString(), location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 28, goal: 12 },
    ]);

    const second = form({
      formToken: newFormToken(),
      visitAt: london(now - HOUR),
      'readings.0.location': 'Kitchen wall',
      'readings.0.material': 'plaster',
      'readings.0.scale': 'wme',
      'readings.0.value': '14.5',
      'readings.0.goal': '12',
      'equipment.0.kind': 'dehumidifier',
      'equipment.0.model': 'Ebac BD150',
      'equipment.0.watts': '700',
      'equipment.0.count': '1',
      'equipment.0.on': london(on),
      'equipment.0.off': london(now - HOUR),
      'equipment.0.kwh': '',
    });
    expect(await pages.recordVisit(reference, staff, second)).toMatchObject({ kind: 'saved' });
    const record = await dryingRecordOf(db, id);
    expect(record.readings.map((reading) => reading.value)).toEqual([28, 14.5]);
    expect(record.machines).toEqual([
      expect.objectContaining({
        model: 'Ebac BD150',
        on: new Date(on).toISOString(),
        off: new Date(Math.floor((now - HOUR) / 60_000) * 60_000).toISOString(),
      }),
    ]);
  });

  it('refuses a reading off its scale under its own field, keeping what was entered, and records nothing', async () => {
    await submitEnquiry(db, { subject: 'Burst pipe', message: 'Water through the kitchen ceiling.' });
    const now = Date.now();
    const pages = createClaimPages({ db: async () => db, now: () => now });
    const staff = (await claimSessionValue(db, 'update', 1, now))!;
    const fields = {
      formToken: newFormToken(),
      visitAt: london(now - HOUR),
      ...blankReading(0),
      'readings.1.location': 'Hall floor',
      'readings.1.material': 'screed',
      'readings.1.scale': 'wme',
      'readings.1.value': '130',
      'readings.1.goal': '15',
    };
    expect(await pages.recordVisit(enquiryReference(1), staff, form(fields))).toEqual({
      kind: 'refused',
      message: staffVisitText.invalid,
      errors: { 'readings.1.value': 'Reading must be within the wme scale, 0-100' },
      values: fields,
    });
    expect(
      await pages.recordVisit(enquiryReference(1), staff, form({ ...fields, visitAt: london(now + 2 * HOUR), 'readings.1.value': '30' })),
    ).toMatchObject({
      kind: 'refused',
      errors: { visitAt: 'Visit date and time must not be in the future' },
    });
    expect(
      await pages.recordVisit(enquiryReference(1), staff, form({ formToken: newFormToken(), visitAt: london(now), ...blankReading(0) })),
    ).toMatchObject({
      kind: 'refused',
      message: staffVisitText.empty,
    });
    expect((await dryingRecordOf(db, 1)).readings).toEqual([]);
  });
});
