import { describe, expect, it } from 'vitest';
import {
  driedRefusal,
  dryingLocations,
  dryingSummary,
  dryingTimeErrors,
  energyCostPence,
  machineEnergy,
  parseDryingRecorded,
  type StoredMachine,
  type StoredReading,
} from '@/lib/drying';

const dehumidifier: StoredMachine = {
  kind: 'dehumidifier',
  model: 'Ebac BD150',
  watts: 700,
  count: 1,
  on: '2026-12-03T10:00:00Z',
  off: '2026-12-10T10:00:00Z',
  kwh: null,
};

describe('electricity the machines used', () => {
  it('a 700 W dehumidifier on from 3 Dec 10:00 to 10 Dec 10:00 uses 117.6 kWh; at 24.5 p/kWh, £28.81', () => {
    const energy = machineEnergy(dehumidifier, Date.parse('2027-01-01T00:00:00Z'));
    expect(energy).toEqual({ hours: 168, kwh: 117.6, source: 'rated' });
    expect(energyCostPence(energy.kwh, 24.5)).toBe(2881);
  });

  it('counts each of several machines of a model, and runs a machine still on to now', () => {
    const now = Date.parse('2026-12-04T22:00:00Z');
    const energy = machineEnergy({ ...dehumidifier, kind: 'air-mover', watts: 150, count: 3, off: null }, now);
    expect(energy).toMatchObject({ hours: 36, source: 'rated' });
    expect(energy.kwh).toBeCloseTo(16.2, 9);
  });

  it('takes the plug-in meter’s kWh where it was read, and says so', () => {
    expect(machineEnergy({ ...dehumidifier, kwh: 101.3 }, Date.now())).toEqual({ hours: 168, kwh: 101.3, source: 'meter' });
  });

  it('rounds a cost to the penny and refuses a unit rate outside 1-200 p/kWh', () => {
    expect(energyCostPence(10.05, 30)).toBe(302); // 301.5p
    expect(energyCostPence(1, 200)).toBe(200);
    expect(() => energyCostPence(1, 0.5)).toThrow(RangeError);
    expect(() => energyCostPence(1, 201)).toThrow(RangeError);
  });
});

const reading = (visitAt: string, location: string, value: number, goal = 12): StoredReading => ({
  visitAt,
  location,
  material: 'plaster',
  scale: 'wme',
  value,
  goal,
});

describe('drying goals and the dried stage', () => {
  it('a location meets its goal when its latest reading is at or below it', () => {
    const locations = dryingLocations([
      reading('2026-12-09T10:00:00Z', 'Kitchen wall', 12),
      reading('2026-12-03T10:00:00Z', 'Kitchen wall', 28),
      reading('2026-12-03T10:00:00Z', 'Hall floor', 30, 15),
      reading('2026-12-09T10:00:00Z', 'Hall floor', 16, 15),
    ]);
    expect(
      locations.map(({ location, readings, goal, met }) => ({ location, readings: readings.map((each) => each.value), goal, met })),
    ).toEqual([
      { location: 'Kitchen wall', readings: [28, 12], goal: 12, met: true },
      { location: 'Hall floor', readings: [30, 16], goal: 15, met: false },
    ]);
  });

  it('refuses dried while a location is above its goal, naming the first; allows it once all are met', () => {
    const wet = dryingLocations([
      reading('2026-12-03T10:00:00Z', 'Kitchen wall', 10),
      reading('2026-12-03T10:00:00Z', 'Hall floor', 16, 15),
    ]);
    expect(driedRefusal(wet)).toMatchObject({ kind: 'above-goal', location: { location: 'Hall floor' } });
    const dry = dryingLocations([
      reading('2026-12-03T10:00:00Z', 'Hall floor', 16, 15),
      reading('2026-12-09T10:00:00Z', 'Hall floor', 15, 15),
    ]);
    expect(driedRefusal(dry)).toBeNull();
    expect(driedRefusal([])).toEqual({ kind: 'no-readings' });
  });

  it('summarises days drying and the machines still in the house', () => {
    const stillOn = { ...dehumidifier, model: 'Dri-Eaz', off: null };
    const summary = dryingSummary(
      [reading('2026-12-03T11:00:00Z', 'Kitchen wall', 28)],
      [dehumidifier, stillOn],
      Date.parse('2026-12-12T09:00:00Z'),
    );
    expect(summary).toMatchObject({ startedAt: '2026-12-03T10:00:00.000Z', endedAt: null, days: 8, running: [stillOn] });
    expect(dryingSummary([], [dehumidifier], Date.now())).toBeNull();
  });
});

const event = (data: Record<string, unknown>) => ({ type: 'claim.drying_recorded', timestamp: '2026-12-09T10:05:00Z', data });
const visit = {
  reference: 'HC-ABC-DEF',
  visitAt: '2026-12-09T10:00:00Z',
  readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 28, goal: 12 }],
  equipment: [{ kind: 'dehumidifier', model: 'Ebac BD150', watts: 700, count: 1, on: '2026-12-03T10:00:00Z', off: null, kwh: null }],
};

describe('the claim.drying_recorded event', () => {
  it('takes the body as the CRM sends it', () => {
    const parsed = parseDryingRecorded(event(visit));
    expect(parsed).toMatchObject({
      ok: true,
      event: { data: { readings: [{ value: 28, goal: 12 }], equipment: [{ off: null, kwh: null }] } },
    });
  });

  it('refuses a reading off its scale, naming the field', () => {
    const off = (value: number, scale = 'wme') =>
      parseDryingRecorded(event({ ...visit, readings: [{ ...visit.readings[0], scale, value }] }));
    expect(off(101)).toMatchObject({ ok: false, errors: [{ path: 'data.readings[0].value', msg: 'must be within the wme scale, 0-100' }] });
    expect(off(-1)).toMatchObject({ ok: false, errors: [{ path: 'data.readings[0].value' }] });
    expect(off(1000, 'relative')).toMatchObject({ ok: false, errors: [{ path: 'data.readings[0].value' }] });
    expect(off(400, 'relative')).toMatchObject({ ok: true });
  });

  it('refuses more than 40 locations or 20 machines in a visit', () => {
    const many = Array.from({ length: 41 }, (_, index) => ({ ...visit.readings[0], location: `Wall ${index}` }));
    expect(parseDryingRecorded(event({ ...visit, readings: many }))).toMatchObject({ ok: false, errors: [{ path: 'data.readings' }] });
    const machines = Array.from({ length: 21 }, () => visit.equipment[0]);
    expect(parseDryingRecorded(event({ ...visit, equipment: machines }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.equipment' }],
    });
  });

  it('refuses a machine switched off before it was switched on, and times in the future or long before the enquiry', () => {
    const backwards = { ...visit.equipment[0], off: '2026-12-02T10:00:00Z' };
    expect(parseDryingRecorded(event({ ...visit, equipment: [backwards] }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.equipment[0].off' }],
    });
    const parsed = parseDryingRecorded(event(visit));
    if (!parsed.ok) throw new Error('expected a valid event');
    const receivedMs = Date.parse('2026-12-05T09:00:00Z');
    expect(dryingTimeErrors(parsed.event.data, { now: Date.parse('2026-12-09T10:00:00Z'), receivedMs })).toEqual([]);
    expect(dryingTimeErrors(parsed.event.data, { now: Date.parse('2026-12-09T09:59:00Z'), receivedMs })).toEqual([
      { path: 'data.visitAt', msg: 'must not be in the future' },
    ]);
    expect(
      dryingTimeErrors(parsed.event.data, { now: Date.parse('2027-06-01T00:00:00Z'), receivedMs: Date.parse('2027-03-20T10:00:00Z') }),
    ).toEqual([
      { path: 'data.visitAt', msg: 'must not be more than 90 days before the enquiry' },
      { path: 'data.equipment[0].on', msg: 'must not be more than 90 days before the enquiry' },
    ]);
  });
});
