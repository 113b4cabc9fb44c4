import { z } from 'zod';
import {
  DRYING_SCALES,
  EQUIPMENT_KINDS,
  MATERIALS,
  SCALE_NAMES,
  type DryingScale,
  type EquipmentKind,
  type Material,
} from '@/lib/drying-terms';
import { isEnquiryReference } from '@/lib/enquiry-reference';
import { wallClock } from '@/lib/zone-clock';

/**
 * A claim's drying record: the company's visits during drying out, each with the moisture readings of
 * the affected locations against their drying goals (the same material's reading in an unaffected
 * area, the "dry standard"), and the machines placed, switched off or removed. The rules here are pure
 * and browser-safe; the server stores visits (server/claims/drying/record.ts) and the status page
 * shows what `dryingSummary` makes of them. Its terms (scales, materials, machines) are in
 * lib/drying-terms.ts, for the staff page's form.
 */

export { DRYING_SCALES, EQUIPMENT_KINDS, MATERIALS, SCALE_NAMES, type DryingScale, type EquipmentKind, type Material };

export const DRYING_LIMITS = {
  locationsPerVisit: 40,
  machinesPerVisit: 20,
  visitsPerClaim: 120,
  /** Drying often starts after a phone call, before the web enquiry. */
  daysBeforeEnquiry: 90,
  /** The customer's unit rate from their bill, pence per kWh. */
  unitRatePence: { min: 1, max: 200 },
  locationLength: 80,
  modelLength: 80,
  /** The largest machine rated: a desiccant dehumidifier or a heater draws a few kW. */
  watts: { min: 1, max: 10_000 },
  count: { min: 1, max: 20 },
  kwh: { min: 0, max: 100_000 },
  /** °C and %RH of the room, optional. */
  temperature: { min: -30, max: 60 },
  humidity: { min: 0, max: 100 },
} as const;

/** An ISO 8601 date and time with its offset from UTC (`Z` or `±hh:mm`): one without is ambiguous. */
export const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

const zonedTime = z
  .string()
  .regex(ZONED_DATE_TIME, 'must be an ISO 8601 date and time with its offset (Z or ±hh:mm)')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a real date and time');

const L = DRYING_LIMITS;
const between = (range: { min: number; max: number }, unit = '') =>
  z.number('must be a number').min(range.min, `must be at least ${range.min}${unit}`).max(range.max, `must be at most ${range.max}${unit}`);

const readingSchema = z
  .object({
    location: z.string().trim().min(1, 'must not be empty').max(L.locationLength, `must be at most ${L.locationLength} characters`),
    material: z.enum(MATERIALS, `must be one of ${MATERIALS.join(', ')}`),
    scale: z.enum(SCALE_NAMES, 'must be "wme" or "relative"'),
    value: z.number('must be a number'),
    goal: z.number('must be a number'),
    temperature: between(L.temperature, ' °C').nullish(),
    humidity: between(L.humidity, ' %RH').nullish(),
  })
  .superRefine((reading, context) => {
    const range = DRYING_SCALES[reading.scale];
    for (const field of ['value', 'goal'] as const)
      if (reading[field] < range.min || reading[field] > range.max)
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `must be within the ${reading.scale} scale, ${range.min}-${range.max}`,
        });
  });

const equipmentSchema = z
  .object({
    kind: z.enum(EQUIPMENT_KINDS, `must be one of ${EQUIPMENT_KINDS.join(', ')}`),
    model: z.string().trim().min(1, 'must not be empty').max(L.modelLength, `must be at most ${L.modelLength} characters`),
    watts: between(L.watts, ' W').int('must be a whole number'),
    count: between(L.count).int('must be a whole number'),
    on: zonedTime,
    off: zonedTime.nullish().transform((value) => value ?? null),
    /** Read from a plug-in meter; where given it is the machine's figure instead of its rating's. */
    kwh: between(L.kwh, ' kWh')
      .nullish()
      .transform((value) => value ?? null),
  })
  .superRefine((machine, context) => {
    if (machine.off !== null && Date.parse(machine.off) < Date.parse(machine.on))
      context.addIssue({ code: 'custom', path: ['off'], message: 'must not be before it was switched on' });
  });

const visitDataObject = z.object({
  reference: z.string('must be a reference like HC-ABC-DEF').refine(isEnquiryReference, 'must be a reference like HC-ABC-DEF'),
  visitAt: zonedTime,
  readings: z.array(readingSchema).max(L.locationsPerVisit, `must list at most ${L.locationsPerVisit} locations`).default([]),
  equipment: z.array(equipmentSchema).max(L.machinesPerVisit, `must list at most ${L.machinesPerVisit} machines`).default([]),
});

function noLocationTwice(data: { readings: readonly { location: string; material: string }[] }, context: z.RefinementCtx) {
  const seen = new Set<string>();
  data.readings.forEach((reading, index) => {
    const key = locationKey(reading);
    if (seen.has(key)) context.addIssue({ code: 'custom', path: ['readings', index, 'location'], message: 'is listed twice' });
    seen.add(key);
  });
}

/** The CRM's `claim.drying_recorded` event: one visit. Times are checked against the claim by `dryingTimeErrors`. */
export const dryingRecordedSchema = z.object({
  type: z.literal('claim.drying_recorded', 'must be "claim.drying_recorded"'),
  timestamp: zonedTime,
  data: visitDataObject.superRefine((data, context) => {
    if (data.readings.length + data.equipment.length === 0)
      context.addIssue({ code: 'custom', path: ['readings'], message: 'a visit records at least one reading or machine' });
    noLocationTwice(data, context);
  }),
});

/**
 * A visit from the staff page: the event's data, where the visit may be only changes to machines
 * already recorded (`machineChangeSchema`), so it may list no reading and no new machine.
 */
export const staffVisitDataSchema = visitDataObject.superRefine(noLocationTwice);

/**
 * A change the staff page makes to a machine already recorded, by its stored id: a new count, the time
 * it was switched off, its meter's kWh (each null: unchanged).
 */
export const machineChangeSchema = z.object({
  id: z.number().int().positive(),
  count: between(L.count).int('must be a whole number').nullable(),
  off: zonedTime.nullable(),
  kwh: between(L.kwh, ' kWh').nullable(),
});
export type MachineChange = z.infer<typeof machineChangeSchema>;

export type DryingRecordedEvent = z.infer<typeof dryingRecordedSchema>;
export type DryingVisitInput = DryingRecordedEvent['data'];
export type ReadingInput = DryingVisitInput['readings'][number];
export type EquipmentInput = DryingVisitInput['equipment'][number];
export type FieldError = { path: string; msg: string };

/** A zod issue's path as the field's name in the body: `data.readings[0].value`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path.reduce<string>(
      (name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)),
      '',
    ) || 'body'
  );
}

/** The event, or each field that is wrong. */
export function parseDryingRecorded(body: unknown): { ok: true; event: DryingRecordedEvent } | { ok: false; errors: FieldError[] } {
  const parsed = dryingRecordedSchema.safeParse(body);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, errors: parsed.error.issues.map((issue) => ({ path: fieldPath(issue.path), msg: issue.message })) };
}

const DAY_MS = 24 * 60 * 60_000;

/** The visit's times that are in the future, or earlier than DRYING_LIMITS.daysBeforeEnquiry before the enquiry. */
export function dryingTimeErrors(visit: DryingVisitInput, bounds: { now: number; receivedMs: number }): FieldError[] {
  const earliest = bounds.receivedMs - L.daysBeforeEnquiry * DAY_MS;
  const times: [string, string | null][] = [
    ['data.visitAt', visit.visitAt],
    ...visit.equipment.flatMap((machine, index): [string, string | null][] => [
      [`data.equipment[${index}].on`, machine.on],
      [`data.equipment[${index}].off`, machine.off],
    ]),
  ];
  return times.flatMap(([path, time]): FieldError[] => {
    if (time === null) return [];
    const at = Date.parse(time);
    if (at > bounds.now) return [{ path, msg: 'must not be in the future' }];
    if (at < earliest) return [{ path, msg: `must not be more than ${L.daysBeforeEnquiry} days before the enquiry` }];
    return [];
  });
}

/** A location is its room or surface and its material: "Kitchen wall" in plaster is one, its skirting in timber another. */
export const locationKey = (reading: { location: string; material: string }) =>
  `${reading.location.trim().toLowerCase()}\u0000${reading.material}`;

/** The same machine across visits: its kind, model and the time it was switched on. */
export const machineKey = (machine: { kind: string; model: string; on: string }) =>
  `${machine.kind}\u0000${machine.model.trim().toLowerCase()}\u0000${Date.parse(machine.on)}`;

const londonMinute = (ms: number) => {
  const clock = wallClock(ms, 'Europe/London');
  return `${clock.date}T${clock.hour}:${clock.minute}`;
};

/**
 * Whether a change from the staff page changes its machine: a row posted as the page served it (off
 * and kWh empty, the count as recorded) does not.
 */
export const changesMachine = (change: MachineChange, stored: { count: number }) =>
  change.off !== null || change.kwh !== null || (change.count !== null && change.count !== stored.count);

/**
 * Whether a machine typed on the staff page (its switched-on time to the minute, on the London clock)
 * is one already recorded to the second: the same kind and model, switched on within that minute, or
 * within that minute an hour later or earlier when the London clock shows the minute twice (the hour
 * repeated when the clocks go back).
 */
export function sameMachineToTheMinute(
  typed: { kind: string; model: string; on: string },
  recorded: { kind: string; model: string; on: string },
): boolean {
  if (typed.kind !== recorded.kind || typed.model.trim().toLowerCase() !== recorded.model.trim().toLowerCase()) return false;
  const typedMs = Math.floor(Date.parse(typed.on) / 60_000) * 60_000;
  const recordedMinute = Math.floor(Date.parse(recorded.on) / 60_000) * 60_000;
  return [typedMs, typedMs + 3_600_000, typedMs - 3_600_000].some(
    (candidate) => candidate === recordedMinute && londonMinute(candidate) === londonMinute(typedMs),
  );
}

/** A stored visit's reading, as the rules read it. */
export type StoredReading = { visitAt: string; location: string; material: Material; scale: DryingScale; value: number; goal: number };

export type DryingLocation = {
  location: string;
  material: Material;
  scale: DryingScale;
  /** Oldest first. */
  readings: { at: string; value: number }[];
  /** The goal of its latest reading. */
  goal: number;
  /** Its latest reading is at or below its goal. */
  met: boolean;
};

/** The record's locations in the order first read, each with its readings over the visits. */
export function dryingLocations(readings: readonly StoredReading[]): DryingLocation[] {
  const byKey = new Map<string, DryingLocation>();
  const ordered = [...readings].sort((a, b) => Date.parse(a.visitAt) - Date.parse(b.visitAt));
  for (const reading of ordered) {
    const key = locationKey(reading);
    const location = byKey.get(key) ?? {
      location: reading.location,
      material: reading.material,
      scale: reading.scale,
      readings: [],
      goal: reading.goal,
      met: false,
    };
    location.readings.push({ at: reading.visitAt, value: reading.value });
    location.scale = reading.scale;
    location.goal = reading.goal;
    location.met = reading.value <= reading.goal;
    byKey.set(key, location);
  }
  return [...byKey.values()];
}

/**
 * Whether the claim may move to `dried`: every location's latest reading at or below its goal. With no
 * reading at all nothing has been validated, so it may not either.
 */
export function driedRefusal(
  locations: readonly DryingLocation[],
): { kind: 'no-readings' } | { kind: 'above-goal'; location: DryingLocation } | null {
  if (locations.length === 0) return { kind: 'no-readings' };
  const wet = locations.find((location) => !location.met);
  return wet ? { kind: 'above-goal', location: wet } : null;
}

/** A machine as recorded: its latest entry (the one that switched it off, say) over the earlier ones. */
export type StoredMachine = {
  kind: EquipmentKind;
  model: string;
  watts: number;
  count: number;
  on: string;
  off: string | null;
  kwh: number | null;
};

export type MachineEnergy = {
  hours: number;
  kwh: number;
  /** `meter`: the plug-in meter's reading; `rated`: rated watts × hours × count. */
  source: 'meter' | 'rated';
};

/** Hours from switched on to switched off (or to `now`, still on); kWh from the meter where read, else from its rating. */
export function machineEnergy(machine: StoredMachine, now: number): MachineEnergy {
  const end = machine.off === null ? now : Date.parse(machine.off);
  const hours = Math.max(0, end - Date.parse(machine.on)) / 3_600_000;
  if (machine.kwh !== null) return { hours, kwh: machine.kwh, source: 'meter' };
  return { hours, kwh: ((machine.watts * hours) / 1000) * machine.count, source: 'rated' };
}

export const isUnitRate = (pence: number) => Number.isFinite(pence) && pence >= L.unitRatePence.min && pence <= L.unitRatePence.max;

/** What `kwh` costs at `pencePerKwh`, in whole pence (rounded to the penny); no standing charge. */
export function energyCostPence(kwh: number, pencePerKwh: number): number {
  if (!isUnitRate(pencePerKwh)) throw new RangeError(`A unit rate is ${L.unitRatePence.min}-${L.unitRatePence.max} p/kWh`);
  // Rounded to a hundredth of a penny first, so 2881.2000000000003 and 2881.1999999 are the same amount.
  return Math.round(Math.round(kwh * pencePerKwh * 100) / 100);
}

/** The customer's view of the record: what the status page shows once a reading exists. */
export type DryingSummary = {
  locations: DryingLocation[];
  /** From the first machine switched on (or the first visit) to the last switched off, or to now while any runs. */
  startedAt: string;
  endedAt: string | null;
  days: number;
  /** Machines in the house now, with when each was switched on. */
  running: StoredMachine[];
};

export function dryingSummary(readings: readonly StoredReading[], machines: readonly StoredMachine[], now: number): DryingSummary | null {
  if (readings.length === 0) return null;
  const starts = [...readings.map((reading) => Date.parse(reading.visitAt)), ...machines.map((machine) => Date.parse(machine.on))];
  const start = Math.min(...starts);
  const running = machines.filter((machine) => machine.off === null).sort((a, b) => Date.parse(a.on) - Date.parse(b.on));
  const lastOff = Math.max(...machines.map((machine) => (machine.off === null ? -Infinity : Date.parse(machine.off))));
  const ended = machines.length > 0 && running.length === 0 ? lastOff : null;
  return {
    locations: dryingLocations(readings),
    startedAt: new Date(start).toISOString(),
    endedAt: ended === null ? null : new Date(ended).toISOString(),
    days: Math.max(0, Math.floor(((ended ?? now) - start) / DAY_MS)),
    running,
  };
}

/** How many visits a claim's readings may go without falling before the owner is told. */
export const STALLED_VISITS = 3;

/**
 * Whether a claim's drying has stalled: its readings have not moved in its last three visits (visits
 * with readings, by time). Of those three, take the first and the last: the locations still above their
 * goal at the last visit that were also read at the first are the ones that should be drying, and
 * drying has stalled when there is at least one and none of them reads lower at the last visit than it
 * did at the first. Fewer than three visits, or every location at its goal, is not stalled.
 */
export function dryingStalled(readings: readonly StoredReading[]): boolean {
  const visits = [...new Set(readings.map((reading) => Date.parse(reading.visitAt)))].sort((a, b) => a - b);
  if (visits.length < STALLED_VISITS) return false;
  const first = visits[visits.length - STALLED_VISITS]!;
  const last = visits[visits.length - 1]!;
  const at = (ms: number) => new Map(readings.filter((reading) => Date.parse(reading.visitAt) === ms).map((r) => [locationKey(r), r]));
  const then = at(first);
  const wet = [...at(last).values()].filter((reading) => reading.value > reading.goal && then.has(locationKey(reading)));
  return wet.length > 0 && wet.every((reading) => reading.value >= then.get(locationKey(reading))!.value);
}

/** Whole days since the first visit. */
export const daysSinceFirstVisit = (readings: readonly StoredReading[], now: number): number | null =>
  readings.length === 0 ? null : Math.max(0, Math.floor((now - Math.min(...readings.map((r) => Date.parse(r.visitAt)))) / DAY_MS));
