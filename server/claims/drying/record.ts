import 'server-only';
import type { Client } from '@libsql/client';
import { and, asc, count, eq, inArray, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import {
  DRYING_LIMITS,
  changesMachine,
  driedRefusal,
  dryingLocations,
  machineEnergy,
  machineKey,
  sameMachineToTheMinute,
  type DryingLocation,
  type DryingVisitInput,
  type EquipmentInput,
  type MachineChange,
  type StoredMachine,
  type StoredReading,
} from '@/lib/drying';
import { dryingRecordedEvent } from '@/server/crm/outgoing-events';
import { orm, writeTransaction } from '@/server/base/db';
import { dryingEquipment, dryingReadings, dryingVisits } from '@/server/base/db-schema';

export type DryingVisitOutcome =
  | 'recorded'
  | 'already-recorded'
  | 'too-many-visits'
  /** Staff only: a change names a machine this claim does not have. */
  | 'unknown-machine'
  /** Staff only: its changes and new machines, counted together, are more than a visit takes. */
  | 'too-many-machines'
  /** Staff only: no reading, no new machine, and every machine row as it was. */
  | 'nothing-changed';

/**
 * Keeps one visit of a claim's drying record, in one write transaction: the visit (once per
 * `eventId`: a CRM event sent again, or a staff Save repeated, records nothing more), its readings,
 * and its machines. A machine already recorded (the same kind, model and time switched on, to the
 * second: `machineKey`) is updated with what this visit says of it (switched off, its meter's kWh, kept
 * when the visit gives none), unless a later visit has spoken since. The staff page names machines
 * already recorded by their stored id (`changes`: only what the row changed is written), and a machine
 * it adds that matches a running one to the minute is that machine (`sameMachineToTheMinute`), never a
 * second row. A claim keeps at most DRYING_LIMITS.visitsPerClaim visits. A visit from the staff page is
 * told to the CRM when its webhooks are on (`tellCrm`: a `claim.drying_recorded` event, in the same
 * transaction).
 */
export async function recordDryingVisit(
  db: Client,
  enquiryId: number,
  visit: DryingVisitInput,
  meta: VisitMeta,
): Promise<DryingVisitOutcome> {
  const q = orm(db);
  const visitMs = Date.parse(visit.visitAt);
  return writeTransaction(db, async (run) => {
    const tx: VisitWrite = { q, run, enquiryId, visitMs };
    const seen = await run(q.select({ id: dryingVisits.id }).from(dryingVisits).where(eq(dryingVisits.eventId, meta.eventId)));
    if (seen.rows.length > 0) return 'already-recorded';
    const visits = await run(q.select({ visits: count() }).from(dryingVisits).where(eq(dryingVisits.enquiryId, enquiryId)));
    if (Number(visits.rows[0]?.[0] ?? 0) >= DRYING_LIMITS.visitsPerClaim) return 'too-many-visits';
    const effective = await effectiveChanges(tx, meta.changes ?? []);
    if (effective === 'unknown-machine') return 'unknown-machine';
    if (visit.readings.length + visit.equipment.length + effective.length === 0) return 'nothing-changed';
    if (visit.equipment.length + effective.length > DRYING_LIMITS.machinesPerVisit) return 'too-many-machines';
    const visitId = await insertVisitAndReadings(tx, visit, meta);
    for (const change of effective) await applyMachineChange(tx, change);
    for (const machine of visit.equipment) await recordMachine(tx, machine, meta.source);
    // The CRM hears of a visit recorded here (never of one it sent), told once the visit is written.
    if (meta.source === 'staff' && meta.tellCrm) await run(q.run(dryingRecordedEvent(enquiryId, visitId, meta.now)));
    return 'recorded';
  });
}

type VisitMeta = { source: 'crm' | 'staff'; eventId: string; now: number; tellCrm?: boolean; changes?: readonly MachineChange[] };

type Run = Parameters<Parameters<typeof writeTransaction>[1]>[0];

/** One visit's write transaction: its queries, the claim and the visit's time. */
type VisitWrite = { q: ReturnType<typeof orm>; run: Run; enquiryId: number; visitMs: number };

/** The changes that change their stored machine, or 'unknown-machine' when one names a machine the claim does not have. */
async function effectiveChanges(
  { q, run, enquiryId }: VisitWrite,
  changes: readonly MachineChange[],
): Promise<readonly MachineChange[] | 'unknown-machine'> {
  const ids = changes.map((change) => change.id);
  const stored =
    ids.length === 0
      ? []
      : (
          await run(
            q
              .select({ id: dryingEquipment.id, count: dryingEquipment.count })
              .from(dryingEquipment)
              .where(and(eq(dryingEquipment.enquiryId, enquiryId), inArray(dryingEquipment.id, ids))),
          )
        ).rows.map((row) => ({ id: Number(row[0]), count: Number(row[1]) }));
  const byId = new Map(stored.map((row) => [row.id, row]));
  if (ids.some((id) => !byId.has(id))) return 'unknown-machine';
  return changes.filter((change) => changesMachine(change, byId.get(change.id)!));
}

/** The visit's row and its readings; returns the visit's id. */
async function insertVisitAndReadings({ q, run, enquiryId, visitMs }: VisitWrite, visit: DryingVisitInput, meta: VisitMeta) {
  const inserted = await run(
    q
      .insert(dryingVisits)
      .values({
        enquiryId,
        visitAt: new Date(visitMs).toISOString(),
        visitMs,
        source: meta.source,
        eventId: meta.eventId,
        recordedAt: new Date(meta.now).toISOString(),
      })
      .returning({ id: dryingVisits.id }),
  );
  const visitId = Number(inserted.rows[0]?.[0]);
  if (visit.readings.length > 0)
    await run(
      q.insert(dryingReadings).values(
        visit.readings.map((reading) => ({
          visitId,
          location: reading.location,
          material: reading.material,
          scale: reading.scale,
          value: reading.value,
          goal: reading.goal,
          temperature: reading.temperature ?? null,
          humidity: reading.humidity ?? null,
        })),
      ),
    );
  return visitId;
}

/** A staff row's change to a machine already recorded: only what the row changed is written. */
async function applyMachineChange({ q, run, enquiryId, visitMs }: VisitWrite, change: MachineChange) {
  await run(
    q
      .update(dryingEquipment)
      .set({
        ...(change.count !== null ? { count: change.count } : {}),
        ...(change.off !== null ? { offAt: new Date(Date.parse(change.off)).toISOString() } : {}),
        ...(change.kwh !== null ? { kwh: change.kwh } : {}),
        lastVisitMs: sql`max(${dryingEquipment.lastVisitMs}, ${visitMs})`,
      })
      .where(and(eq(dryingEquipment.enquiryId, enquiryId), eq(dryingEquipment.id, change.id))),
  );
}

/** A machine the visit names: a new row, or the stored one updated unless a later visit has spoken since. */
async function recordMachine(tx: VisitWrite, machine: EquipmentInput, source: 'crm' | 'staff') {
  const { q, run, enquiryId, visitMs } = tx;
  const key = machineKey(machine);
  const sameId = await sameRunningMachine(q, run, enquiryId, machine, source);
  const where = and(
    eq(dryingEquipment.enquiryId, enquiryId),
    sameId === null ? eq(dryingEquipment.machineKey, key) : eq(dryingEquipment.id, sameId),
  );
  const known = await run(q.select({ lastVisitMs: dryingEquipment.lastVisitMs }).from(dryingEquipment).where(where));
  const row = known.rows[0];
  const fields = {
    watts: machine.watts,
    count: machine.count,
    offAt: machine.off === null ? null : new Date(Date.parse(machine.off)).toISOString(),
    // A visit that read no meter keeps the kWh an earlier one read.
    kwh: machine.kwh === null ? sql`${dryingEquipment.kwh}` : machine.kwh,
    lastVisitMs: visitMs,
  };
  if (!row)
    await run(
      q.insert(dryingEquipment).values({
        enquiryId,
        machineKey: key,
        kind: machine.kind,
        model: machine.model,
        onAt: new Date(Date.parse(machine.on)).toISOString(),
        ...fields,
        kwh: machine.kwh,
      }),
    );
  else if (visitMs >= Number(row[0])) await run(q.update(dryingEquipment).set(fields).where(where));
}

/**
 * The id of the running machine a staff-typed one is (its time typed to the minute, the record's to
 * the second), or null. The CRM's events name a machine to the second and are taken as they say.
 */
async function sameRunningMachine(
  q: ReturnType<typeof orm>,
  run: Run,
  enquiryId: number,
  machine: EquipmentInput,
  source: 'crm' | 'staff',
) {
  if (source !== 'staff') return null;
  const running = await run(
    q
      .select({ id: dryingEquipment.id, kind: dryingEquipment.kind, model: dryingEquipment.model, on: dryingEquipment.onAt })
      .from(dryingEquipment)
      .where(and(eq(dryingEquipment.enquiryId, enquiryId), eq(dryingEquipment.kind, machine.kind), isNull(dryingEquipment.offAt))),
  );
  const match = running.rows.find((row) =>
    sameMachineToTheMinute(machine, { kind: String(row[1]), model: String(row[2]), on: String(row[3]) }),
  );
  return match ? Number(match[0]) : null;
}

/** A claim's machines with their stored ids (the staff page's rows name them so), oldest first. */
export async function machinesOf(db: Client, enquiryId: number): Promise<(StoredMachine & { id: number })[]> {
  return orm(db)
    .select({
      id: dryingEquipment.id,
      kind: dryingEquipment.kind,
      model: dryingEquipment.model,
      watts: dryingEquipment.watts,
      count: dryingEquipment.count,
      on: dryingEquipment.onAt,
      off: dryingEquipment.offAt,
      kwh: dryingEquipment.kwh,
    })
    .from(dryingEquipment)
    .where(eq(dryingEquipment.enquiryId, enquiryId))
    .orderBy(asc(dryingEquipment.onAt), asc(dryingEquipment.id));
}

export type DryingRecord = { readings: StoredReading[]; machines: StoredMachine[] };

/** A claim's readings (with their visits' times) and machines, oldest first. */
export async function dryingRecordOf(db: Client, enquiryId: number): Promise<DryingRecord> {
  const q = orm(db);
  const readings = await q
    .select({
      visitAt: dryingVisits.visitAt,
      location: dryingReadings.location,
      material: dryingReadings.material,
      scale: dryingReadings.scale,
      value: dryingReadings.value,
      goal: dryingReadings.goal,
    })
    .from(dryingReadings)
    .innerJoin(dryingVisits, eq(dryingVisits.id, dryingReadings.visitId))
    .where(eq(dryingVisits.enquiryId, enquiryId))
    .orderBy(asc(dryingVisits.visitMs), asc(dryingReadings.id));
  const machines = (await machinesOf(db, enquiryId)).map(({ id: _id, ...machine }) => machine);
  return { readings, machines };
}

/** Why a claim may not move to `dried` now (lib/drying.ts driedRefusal), or null when it may. */
export async function driedRefusalOf(db: Client, enquiryId: number) {
  return driedRefusal(dryingLocations((await dryingRecordOf(db, enquiryId)).readings));
}

/** The location a refusal names, as people say it: "Kitchen wall, plaster". */
export const locationWords = (location: Pick<DryingLocation, 'location' | 'material'>) => `${location.location}, ${location.material}`;

/** A reading as the data export and the CRM get it. */
const readingColumns = {
  location: dryingReadings.location,
  material: dryingReadings.material,
  scale: dryingReadings.scale,
  value: dryingReadings.value,
  goal: dryingReadings.goal,
  temperature: dryingReadings.temperature,
  humidity: dryingReadings.humidity,
};

/** A claim's drying record as a data export gives it: each visit with its readings, and the machines. */
export async function dryingExportOf(db: Client, enquiryId: number) {
  const q = orm(db);
  const visits = await q
    .select({ id: dryingVisits.id, visitAt: dryingVisits.visitAt, source: dryingVisits.source, recordedAt: dryingVisits.recordedAt })
    .from(dryingVisits)
    .where(eq(dryingVisits.enquiryId, enquiryId))
    .orderBy(asc(dryingVisits.visitMs), asc(dryingVisits.id));
  const readings =
    visits.length === 0
      ? []
      : await q
          .select({ visitId: dryingReadings.visitId, ...readingColumns })
          .from(dryingReadings)
          .where(
            inArray(
              dryingReadings.visitId,
              visits.map((visit) => visit.id),
            ),
          )
          .orderBy(asc(dryingReadings.id));
  return {
    visits: visits.map(({ id, ...visit }) => ({
      ...visit,
      readings: readings.filter((reading) => reading.visitId === id).map(({ visitId: _visitId, ...reading }) => reading),
    })),
    machines: (await dryingRecordOf(db, enquiryId)).machines,
  };
}

/** The statements that delete the drying records of the enquiries `ids` selects (erasure, retention): before the enquiries. */
export function deleteDryingRecords(db: Client, ids: SQLWrapper) {
  const q = orm(db);
  const theirVisits = q.select({ id: dryingVisits.id }).from(dryingVisits).where(inArray(dryingVisits.enquiryId, ids));
  return [
    q.delete(dryingReadings).where(inArray(dryingReadings.visitId, theirVisits)),
    q.delete(dryingEquipment).where(inArray(dryingEquipment.enquiryId, ids)),
    q.delete(dryingVisits).where(inArray(dryingVisits.enquiryId, ids)),
  ];
}

/**
 * One visit as the CRM's `claim.drying_recorded` event tells of it, built when the event is sent: the
 * visit's readings, and the claim's machines placed by then with their kWh up to the visit (the
 * plug-in meter's where read, else rated watts × hours × count: `kwhFrom`). Null when the visit is gone.
 */
export async function dryingVisitForCrm(db: Client, enquiryId: number, visitId: number | null) {
  if (visitId === null) return null;
  const q = orm(db);
  const [visit] = await q
    .select({ visitAt: dryingVisits.visitAt, visitMs: dryingVisits.visitMs })
    .from(dryingVisits)
    .where(and(eq(dryingVisits.id, visitId), eq(dryingVisits.enquiryId, enquiryId)));
  if (!visit) return null;
  const readings = await q
    .select(readingColumns)
    .from(dryingReadings)
    .where(eq(dryingReadings.visitId, visitId))
    .orderBy(asc(dryingReadings.id));
  const equipment = (await dryingRecordOf(db, enquiryId)).machines
    .filter((machine) => Date.parse(machine.on) <= visit.visitMs)
    .map((machine) => {
      // Switched off after this visit (a later visit said so): still running as of this one.
      const asOfVisit = machine.off !== null && Date.parse(machine.off) > visit.visitMs ? { ...machine, off: null } : machine;
      const energy = machineEnergy(asOfVisit, visit.visitMs);
      return { ...asOfVisit, hoursSoFar: round(energy.hours, 2), kwhSoFar: round(energy.kwh, 2), kwhFrom: energy.source };
    });
  return {
    visitAt: visit.visitAt,
    readings,
    equipment,
    kwhSoFar: round(
      equipment.reduce((sum, machine) => sum + machine.kwhSoFar, 0),
      2,
    ),
  };
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
