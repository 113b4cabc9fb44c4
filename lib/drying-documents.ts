import {
  dryingLocations,
  energyCostPence,
  isUnitRate,
  machineEnergy,
  type DryingScale,
  type Material,
  type StoredMachine,
  type StoredReading,
} from '@/lib/drying';

/**
 * The figures of a claim's two drying documents, the electricity statement and the certificate of
 * dryness: the PDFs and the verification page show these, so an insurer who opens the page sees what
 * the customer's document says. Pure; the server reads the record (server/claims/drying/documents.ts).
 */

/** kWh and hours as the documents print them, to a tenth: the total is the sum of the figures printed. */
export const tenth = (value: number) => Math.round(value * 10) / 10;

export type StatementMachine = StoredMachine & { hours: number; kwhUsed: number; source: 'meter' | 'rated' };

export type ElectricityStatement = {
  reference: string;
  postcode: string | null;
  /** The first machine switched on to the last switched off, or to `issuedAt` while any runs. */
  from: string;
  to: string;
  running: boolean;
  machines: StatementMachine[];
  totalKwh: number;
  /** Only when the customer typed their unit rate: nothing here invents a tariff. */
  cost: { pencePerKwh: number; pence: number } | null;
  issuedAt: string;
};

/** The statement, or null while no machine is recorded. A rate outside 1-200 p/kWh is refused by throwing. */
export function electricityStatement(input: {
  reference: string;
  postcode: string | null;
  machines: readonly StoredMachine[];
  now: number;
  pencePerKwh?: number | null;
}): ElectricityStatement | null {
  if (input.machines.length === 0) return null;
  const machines = input.machines.map((machine): StatementMachine => {
    const energy = machineEnergy(machine, input.now);
    return { ...machine, hours: tenth(energy.hours), kwhUsed: tenth(energy.kwh), source: energy.source };
  });
  const running = machines.some((machine) => machine.off === null);
  const from = Math.min(...machines.map((machine) => Date.parse(machine.on)));
  const to = running ? input.now : Math.max(...machines.map((machine) => Date.parse(machine.off!)));
  const totalKwh = tenth(machines.reduce((sum, machine) => sum + machine.kwhUsed, 0));
  const rate = input.pencePerKwh ?? null;
  if (rate !== null && !isUnitRate(rate)) throw new RangeError('A unit rate is 1-200 p/kWh');
  return {
    reference: input.reference,
    postcode: input.postcode,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    running,
    machines,
    totalKwh,
    cost: rate === null ? null : { pencePerKwh: rate, pence: energyCostPence(totalKwh, rate) },
    issuedAt: new Date(input.now).toISOString(),
  };
}

export type CertificateLocation = {
  location: string;
  material: Material;
  scale: DryingScale;
  goal: number;
  first: { at: string; value: number };
  last: { at: string; value: number };
};

/** One reading of one visit, as the certificate's full table prints it. */
export type CertificateReading = { at: string; location: string; material: Material; scale: DryingScale; value: number; goal: number };

export type DrynessCertificate = {
  reference: string;
  postcode: string | null;
  locations: CertificateLocation[];
  /** Every reading of every visit, oldest visit first (a visit's in the order recorded). */
  readings: CertificateReading[];
  /** Machines switched off and taken away, oldest first. */
  removed: StoredMachine[];
  confirmedAt: string;
  /** Who confirmed drying on the staff page; null when the company's CRM moved the claim. */
  confirmedBy: string | null;
  issuedAt: string;
};

/** The certificate, or null unless the claim is at `dried` (its stage change is `confirmed`) with readings. */
export function drynessCertificate(input: {
  reference: string;
  postcode: string | null;
  readings: readonly StoredReading[];
  machines: readonly StoredMachine[];
  confirmed: { at: string; by: string | null } | null;
  now: number;
}): DrynessCertificate | null {
  if (!input.confirmed || input.readings.length === 0) return null;
  return {
    reference: input.reference,
    postcode: input.postcode,
    locations: dryingLocations(input.readings).map((location) => ({
      location: location.location,
      material: location.material,
      scale: location.scale,
      goal: location.goal,
      first: location.readings[0]!,
      last: location.readings.at(-1)!,
    })),
    readings: [...input.readings]
      .sort((a, b) => Date.parse(a.visitAt) - Date.parse(b.visitAt))
      .map((reading) => ({
        at: reading.visitAt,
        location: reading.location,
        material: reading.material,
        scale: reading.scale,
        value: reading.value,
        goal: reading.goal,
      })),
    removed: input.machines.filter((machine) => machine.off !== null),
    confirmedAt: input.confirmed.at,
    confirmedBy: input.confirmed.by,
    issuedAt: new Date(input.now).toISOString(),
  };
}

/** The unit rate the customer typed, in p/kWh (up to two decimals: 24.5, 27.03), or null when it is not one. */
export function unitRateOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,3}(?:\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return isUnitRate(value) ? value : null;
}

/** Whether the record has a machine, so an electricity statement: one in the house now, or all switched off. */
export const hasStatement = (drying: { running: readonly unknown[]; endedAt: string | null }) =>
  drying.running.length > 0 || drying.endedAt !== null;

/** Whether a certificate of dryness stands: of the changes to `drying` and `dried` (oldest first), the latest is `dried`. */
export const hasCertificate = (timeline: readonly { stage: string }[]) =>
  timeline.filter((change) => change.stage === 'drying' || change.stage === 'dried').at(-1)?.stage === 'dried';
