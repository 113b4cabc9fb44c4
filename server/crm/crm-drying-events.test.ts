// POST /api/crm/events with `claim.drying_recorded` against a real database, with real signatures:
// visits of a claim's drying record, and the `dried` stage they gate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staffVisitText } from '@/content/drying';
import { dryingLocations, machineEnergy } from '@/lib/drying';
import { claimStatus } from '@/server/claims/claim-status';
import { dryingRecordOf } from '@/server/claims/drying/record';
import { createCrmEventsHandler } from '@/server/crm/crm-events';
import { erasePersonalData, exportPersonalData } from '@/server/upkeep/data-requests';
import { purgeExpired } from '@/server/upkeep/retention';
import { crmEventRequest, testCrmEventsSecret } from '@/tests/support/crm-event';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const RECEIVED = Date.parse('2026-12-02T09:00:00Z');
const NOW = Date.parse('2026-12-10T12:00:00Z');

let db: Client;
let cleanup: () => void;
let reference: string;
let outbox: string;
const id = 1;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  outbox = mkdtempSync(path.join(tmpdir(), 'homecare-drying-outbox-'));
  ({ reference } = await submitEnquiry(db, { subject: 'Burst pipe', message: 'Water through the kitchen ceiling.' }));
  // The enquiry came in on 2 December (the contact handler stamps the real time).
  await db.execute({
    sql: 'UPDATE enquiries SET received_ms = ?, received_at = ? WHERE id = ?',
    args: [RECEIVED, new Date(RECEIVED).toISOString(), id],
  });
});
afterEach(() => {
  cleanup();
  rmSync(outbox, { recursive: true, force: true });
});

const handler = () => createCrmEventsHandler({ secret: testCrmEventsSecret, db: async () => db, now: () => NOW });

/** An event from the CRM signed at NOW, said to happen a minute before. */
const signed = (type: string, data: Record<string, unknown>, id?: string) =>
  crmEventRequest(type, data, { id, signedAt: NOW, happened: new Date(NOW - 60_000) });

const dehumidifier = { kind: 'dehumidifier', model: 'Ebac BD150', watts: 700, count: 1, on: '2026-12-03T10:00:00Z', off: null, kwh: null };
const firstVisit = () => ({
  reference,
  visitAt: '2026-12-03T10:00:00Z',
  readings: [
    { location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 28, goal: 12 },
    { location: 'Hall floor', material: 'screed', scale: 'relative', value: 310, goal: 120, temperature: 18.5, humidity: 72 },
  ],
  equipment: [dehumidifier],
});
const lastVisit = (kitchen = 12) => ({
  reference,
  visitAt: '2026-12-10T10:00:00Z',
  readings: [
    { location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: kitchen, goal: 12 },
    { location: 'Hall floor', material: 'screed', scale: 'relative', value: 115, goal: 120 },
  ],
  equipment: [{ ...dehumidifier, off: '2026-12-10T10:00:00Z' }],
});
const dryingEvent = (data: Record<string, unknown>, eventId?: string) => signed('claim.drying_recorded', data, eventId);
const toDried = () => signed('claim.updated', { reference, stage: 'dried' });

describe('claim.drying_recorded from the CRM', () => {
  it('a reading above its goal after dried moves the claim back to drying once, at the visit, telling the customer', async () => {
    await handler()(dryingEvent(firstVisit()));
    await handler()(dryingEvent(lastVisit(11)));
    expect((await handler()(toDried())).status).toBe(200);
    expect((await claimStatus(db, id))?.stage).toBe('dried');
    const wet = { ...lastVisit(14), visitAt: '2026-12-10T11:59:30Z', equipment: [] };
    expect(await handler()(dryingEvent(wet, 'msg_wet'))).toEqual({ status: 200, body: { success: true, applied: true } });
    // Sent again: applied once.
    expect(await handler()(dryingEvent(wet, 'msg_wet'))).toEqual({ status: 200, body: { success: true, applied: false } });
    const status = await claimStatus(db, id);
    expect(status?.stage).toBe('drying');
    expect(status?.timeline.at(-1)).toEqual({
      stage: 'drying',
      at: '2026-12-10T11:59:30.000Z',
      note: staffVisitText.reopenNote('Kitchen wall, plaster'),
    });
    const reopened = await db.execute("SELECT event_id, source FROM claim_stage_changes WHERE stage = 'drying'");
    expect(reopened.rows.map((row) => [row.event_id, row.source])).toEqual([['reading-above-goal:msg_wet', 'staff']]);
    expect((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'stage'")).rows[0]?.n).toBe(2);
  });

  it('records a visit, and a replayed webhook-id is not applied twice', async () => {
    expect(await handler()(dryingEvent(firstVisit(), 'msg_visit_1'))).toEqual({ status: 200, body: { success: true, applied: true } });
    expect(await handler()(dryingEvent(firstVisit(), 'msg_visit_1'))).toEqual({ status: 200, body: { success: true, applied: false } });
    const record = await dryingRecordOf(db, id);
    expect(record.readings.map((reading) => [reading.location, reading.value, reading.goal])).toEqual([
      ['Kitchen wall', 28, 12],
      ['Hall floor', 310, 120],
    ]);
    expect(record.machines).toEqual([{ ...dehumidifier, on: '2026-12-03T10:00:00.000Z' }]);
  });

  it('updates a machine already recorded (same kind, model and time on) with its off time: 117.6 kWh', async () => {
    await handler()(dryingEvent(firstVisit()));
    await handler()(dryingEvent(lastVisit()));
    const { machines, readings } = await dryingRecordOf(db, id);
    expect(machines).toHaveLength(1);
    expect(machines[0]).toMatchObject({ off: '2026-12-10T10:00:00.000Z' });
    expect(machineEnergy(machines[0]!, NOW)).toEqual({ hours: 168, kwh: 117.6, source: 'rated' });
    expect(dryingLocations(readings).map((location) => location.readings.map((each) => each.value))).toEqual([
      [28, 12],
      [310, 115],
    ]);
  });

  it('answers 400 naming the field for a reading off its scale', async () => {
    for (const value of [101, -1]) {
      const visit = firstVisit();
      visit.readings[0]!.value = value;
      const answer = await handler()(dryingEvent(visit));
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ path: 'data.readings[0].value', msg: 'must be within the wme scale, 0-100' }]);
    }
    expect((await dryingRecordOf(db, id)).readings).toEqual([]);
  });

  it('answers 400 for a visit in the future or over 90 days before the enquiry, 404 for an unknown claim', async () => {
    const future = await handler()(dryingEvent({ ...firstVisit(), visitAt: '2026-12-11T10:00:00Z' }));
    expect(future).toMatchObject({ status: 400, body: { errors: [{ path: 'data.visitAt', msg: 'must not be in the future' }] } });
    const early = await handler()(dryingEvent({ ...firstVisit(), equipment: [{ ...dehumidifier, on: '2026-08-01T10:00:00Z' }] }));
    expect(early).toMatchObject({ status: 400, body: { errors: [{ path: 'data.equipment[0].on' }] } });
    expect((await handler()(dryingEvent({ ...firstVisit(), reference: 'HC-ZZZ-ZZZ' }))).status).toBe(404);
  });

  it('keeps at most 120 visits of a claim', async () => {
    const visit = { reference, visitAt: '2026-12-04T10:00:00Z', readings: [firstVisit().readings[0]] };
    for (let index = 0; index < 120; index += 1) expect((await handler()(dryingEvent(visit))).status).toBe(200);
    expect(await handler()(dryingEvent(visit))).toMatchObject({ status: 409, body: { success: false } });
  });

  it('shows the record on the claim’s status once a reading exists', async () => {
    expect((await claimStatus(db, id, { now: NOW }))?.drying).toBeNull();
    await handler()(dryingEvent(firstVisit()));
    expect((await claimStatus(db, id, { now: NOW }))?.drying).toMatchObject({
      locations: [{ location: 'Kitchen wall', readings: [{ value: 28 }], goal: 12, met: false }, { location: 'Hall floor' }],
      days: 7,
      running: [{ model: 'Ebac BD150' }],
    });
  });
});

describe('the dried stage', () => {
  it('is refused with 409 naming the location while one is above its goal, and accepted once all are met', async () => {
    expect(await handler()(toDried())).toMatchObject({
      status: 409,
      body: { errors: [{ path: 'data.stage', msg: 'cannot be "dried": the claim has no drying readings' }] },
    });
    await handler()(dryingEvent(firstVisit()));
    await handler()(dryingEvent(lastVisit(13)));
    expect(await handler()(toDried())).toMatchObject({
      status: 409,
      body: { errors: [{ path: 'data.stage', msg: 'cannot be "dried": Kitchen wall, plaster is above its drying goal' }] },
    });
    expect((await claimStatus(db, id))?.stage).toBe('received');
    await handler()(dryingEvent({ ...lastVisit(11), visitAt: '2026-12-10T11:00:00Z' }));
    const dried = () => signed('claim.updated', { reference, stage: 'dried' }, 'msg_dried');
    expect(await handler()(dried())).toMatchObject({ status: 200, body: { applied: true, current: true } });
    expect((await claimStatus(db, id))?.stage).toBe('dried');
    // A retry of that event after a later visit found the wall wet again: answered as applied before.
    await handler()(dryingEvent({ ...lastVisit(15), visitAt: '2026-12-10T11:30:00Z' }));
    expect(await handler()(dried())).toEqual({ status: 200, body: { success: true, applied: false } });
  });
});

describe('the drying record and personal data', () => {
  it('is in a data export, and goes with the enquiry on erasure', async () => {
    await handler()(dryingEvent(firstVisit()));
    const exported = await exportPersonalData(db, 'jo@example.com', NOW);
    expect(exported.enquiries[0]?.drying).toMatchObject({
      visits: [
        {
          visitAt: '2026-12-03T10:00:00.000Z',
          source: 'crm',
          readings: [{ location: 'Kitchen wall', value: 28 }, { location: 'Hall floor' }],
        },
      ],
      machines: [{ model: 'Ebac BD150' }],
    });
    expect(await erasePersonalData(db, 'jo@example.com', { photosRoot: outbox, outboxDir: outbox })).toMatchObject({ enquiries: 1 });
    for (const table of ['drying_visits', 'drying_readings', 'drying_equipment'])
      expect((await db.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n).toBe(0);
  });

  it('goes with the enquiry when it expires', async () => {
    await handler()(dryingEvent(firstVisit()));
    const years = Date.parse('2036-12-10T00:00:00Z');
    expect(await purgeExpired(db, years, { photosRoot: outbox, outboxDir: outbox })).toMatchObject({ enquiries: 1 });
    for (const table of ['drying_visits', 'drying_readings', 'drying_equipment'])
      expect((await db.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n).toBe(0);
  });
});
