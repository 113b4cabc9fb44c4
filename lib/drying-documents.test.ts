// The figures of the electricity statement and the certificate of dryness, from the hand-worked case.
import { describe, expect, it } from 'vitest';
import { drynessCertificate, electricityStatement, hasCertificate, unitRateOf } from '@/lib/drying-documents';
import type { StoredMachine } from '@/lib/drying';

const dehumidifier: StoredMachine = {
  kind: 'dehumidifier',
  model: 'Ebac 2650e',
  watts: 700,
  count: 1,
  on: '2026-12-03T10:00:00.000Z',
  off: '2026-12-10T10:00:00.000Z',
  kwh: null,
};
const now = Date.parse('2026-12-11T09:00:00Z');
const statementOf = (machines: StoredMachine[], pencePerKwh: number | null = null) =>
  electricityStatement({ reference: 'HC-ABC-DEF', postcode: 'G67 1AA', machines, now, pencePerKwh })!;

describe('the electricity statement', () => {
  it('gives a 700 W dehumidifier on from 3 Dec 10:00 to 10 Dec 10:00 168 hours, 117.6 kWh, and £28.81 at 24.5 p/kWh', () => {
    const statement = statementOf([dehumidifier], 24.5);
    expect(statement.machines[0]).toMatchObject({ hours: 168, kwhUsed: 117.6, source: 'rated' });
    expect(statement.totalKwh).toBe(117.6);
    expect(statement.cost).toEqual({ pencePerKwh: 24.5, pence: 2881 });
    expect(statement).toMatchObject({ from: dehumidifier.on, to: dehumidifier.off, running: false });
  });

  it('gives kWh only without the customer’s rate: nothing invents a tariff', () => {
    expect(statementOf([dehumidifier]).cost).toBeNull();
  });

  it('takes a plug-in meter’s kWh where recorded, and counts a running machine to the statement’s date', () => {
    const metered = { ...dehumidifier, kwh: 101.25 };
    const mover: StoredMachine = {
      kind: 'air-mover',
      model: 'Mover',
      watts: 200,
      count: 2,
      on: '2026-12-09T09:00:00Z',
      off: null,
      kwh: null,
    };
    const statement = statementOf([metered, mover]);
    expect(statement.machines.map((machine) => [machine.source, machine.kwhUsed, machine.hours])).toEqual([
      ['meter', 101.3, 168],
      ['rated', 19.2, 48],
    ]);
    expect(statement.totalKwh).toBe(120.5);
    expect(statement).toMatchObject({ running: true, to: new Date(now).toISOString() });
  });

  it('has no statement without a machine, and refuses a rate outside 1-200 p/kWh', () => {
    expect(electricityStatement({ reference: 'HC-ABC-DEF', postcode: null, machines: [], now })).toBeNull();
    expect(() => statementOf([dehumidifier], 0.5)).toThrow(RangeError);
    expect(() => statementOf([dehumidifier], 201)).toThrow(RangeError);
  });

  it('reads the rate the customer types: 1-200 p/kWh, up to two decimals', () => {
    expect(['24.5', ' 27.03 ', '1', '200'].map(unitRateOf)).toEqual([24.5, 27.03, 1, 200]);
    expect(['0', '0.99', '200.01', '24,5', '1e2', '-3', '24.555', 'abc', ''].map(unitRateOf)).toEqual(Array(9).fill(null));
  });
});

describe('the certificate of dryness', () => {
  const readings = [
    { visitAt: '2026-12-03T10:00:00Z', location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value: 28, goal: 12 },
    { visitAt: '2026-12-06T10:00:00Z', location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value: 19, goal: 12 },
    { visitAt: '2026-12-10T10:00:00Z', location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value: 12, goal: 12 },
  ];
  const confirmed = { at: '2026-12-10T11:00:00Z', by: 'Sam Fitter' };

  it('gives each location’s first and last reading against its goal, and the machines removed', () => {
    const mover: StoredMachine = {
      kind: 'air-mover',
      model: 'Mover',
      watts: 200,
      count: 1,
      on: '2026-12-09T09:00:00Z',
      off: null,
      kwh: null,
    };
    const certificate = drynessCertificate({
      reference: 'HC-ABC-DEF',
      postcode: null,
      readings,
      machines: [dehumidifier, mover],
      confirmed,
      now,
    })!;
    expect(certificate.locations).toEqual([
      {
        location: 'Kitchen wall',
        material: 'plaster',
        scale: 'wme',
        goal: 12,
        first: { at: '2026-12-03T10:00:00Z', value: 28 },
        last: { at: '2026-12-10T10:00:00Z', value: 12 },
      },
    ]);
    expect(certificate.removed).toEqual([dehumidifier]);
    expect(certificate).toMatchObject({ confirmedAt: confirmed.at, confirmedBy: 'Sam Fitter' });
  });

  it('stands only once drying is confirmed, and not after the claim went back to drying', () => {
    expect(drynessCertificate({ reference: 'HC-ABC-DEF', postcode: null, readings, machines: [], confirmed: null, now })).toBeNull();
    expect(hasCertificate([{ stage: 'received' }, { stage: 'drying' }, { stage: 'dried' }, { stage: 'works-booked' }])).toBe(true);
    expect(hasCertificate([{ stage: 'drying' }, { stage: 'dried' }, { stage: 'drying' }])).toBe(false);
    expect(hasCertificate([{ stage: 'drying' }])).toBe(false);
  });
});
