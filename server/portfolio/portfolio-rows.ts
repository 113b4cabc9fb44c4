import 'server-only';
import type { Client, InValue, ResultSet } from '@libsql/client';
import { business } from '@/content/business';
import type { ClaimStage } from '@/lib/claim-stages';
import { damageTypeLabel } from '@/lib/contact-fields';
import { enquiryReference } from '@/lib/enquiry-reference';
import { firstReachedAt } from '@/lib/insurer-times';
import type { PortfolioFilter, PortfolioPeriod, PortfolioRow } from '@/lib/portfolio/portfolio-row';
import { heldStandards, portfolioPeriod, standingsOf, type ClaimTimes, type PeriodRow } from '@/lib/portfolio/standing';
import { readStoredStandards, type OrganisationStandards } from '@/lib/portfolio/standards';
import { meetsStandard, windowWords, type SurveyWindowName } from '@/lib/survey-windows';
import { workingDeadline, type WorkingHours } from '@/lib/working-time';

/**
 * An instructing organisation's portfolio: its accepted claims (`enquiries.organisation_id`), newest
 * first, read in batches by the `enquiries_organisation` index (organisation, received) from where the
 * last batch ended, so the CSV can stream any number of rows and the page read 2,000 in a few queries.
 * Each batch reads its claims' stage changes, drying records and booked survey visits in one query each,
 * never one per claim.
 */

const DAY_MS = 24 * 60 * 60_000;
const BATCH = 500;

type Options = { batchSize?: number; hours?: WorkingHours };

/** The standards an organisation is held to (its own, else the company's once confirmed); null for no such organisation. */
export async function portfolioStandards(db: Client, organisationId: number): Promise<OrganisationStandards | null> {
  const { rows } = await db.execute({ sql: 'SELECT standards FROM organisations WHERE id = ?', args: [organisationId] });
  if (rows.length === 0) return null;
  const stored = rows[0]!.standards;
  return heldStandards(readStoredStandards(typeof stored === 'string' ? stored : null), business.forInsurers);
}

// The claim's current stage is its latest change by time, then id (as claimStatus orders them): the
// filters ask it of the database; a row reads it from the claim's changes.
const LATEST_STAGE = `coalesce((SELECT c.stage FROM claim_stage_changes c WHERE c.enquiry_id = e.id
  ORDER BY c.changed_ms DESC, c.id DESC LIMIT 1), 'received')`;

type ClaimRecord = {
  id: number;
  reference: string;
  claimNumber: string | null;
  postcode: string | null;
  damageType: string | null;
  receivedMs: number;
};

type Query = { organisationId: number; filter: PortfolioFilter; sinceMs: number | null; batchSize: number };

/** The claims of the organisation in batches, newest first, each batch after the last one's end. */
async function* claimBatches(db: Client, query: Query): AsyncGenerator<ClaimRecord[]> {
  const where = ['e.organisation_id = ?', "e.disposition = 'accepted'"];
  const args: InValue[] = [query.organisationId];
  if (query.sinceMs !== null) {
    where.push('e.received_ms > ?');
    args.push(query.sinceMs);
  }
  if (query.filter.stage !== null) {
    where.push(`${LATEST_STAGE} = ?`);
    args.push(query.filter.stage);
  }
  if (query.filter.state !== 'all') where.push(`${LATEST_STAGE} ${query.filter.state === 'closed' ? '=' : '<>'} 'completed'`);
  let after: [number, number] | null = null;
  for (;;) {
    const { rows }: ResultSet = await db.execute({
      sql: `SELECT e.id, e.reference, e.claim_reference, e.postcode, e.damage_type, e.received_ms
        FROM enquiries e
        WHERE ${[...where, ...(after ? ['(e.received_ms, e.id) < (?, ?)'] : [])].join(' AND ')}
        ORDER BY e.received_ms DESC, e.id DESC LIMIT ?`,
      args: [...args, ...(after ?? []), query.batchSize],
    });
    if (rows.length === 0) return;
    const batch: ClaimRecord[] = rows.map((row): ClaimRecord => ({
      id: Number(row.id),
      reference: row.reference === null ? enquiryReference(Number(row.id)) : String(row.reference),
      claimNumber: row.claim_reference === null ? null : String(row.claim_reference),
      postcode: row.postcode === null ? null : String(row.postcode),
      damageType: row.damage_type === null ? null : String(row.damage_type),
      receivedMs: Number(row.received_ms),
    }));
    yield batch;
    if (rows.length < query.batchSize) return;
    const last: ClaimRecord = batch.at(-1)!;
    after = [last.receivedMs, last.id];
  }
}

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * Each claim's changes of stage, oldest first (by time, then id), in one query: one row per claim, its
 * changes joined into one string ("contacted 1767225600000,surveyed …"; stage names have no spaces or
 * commas), since the driver's cost is per row fetched far more than per byte.
 */
async function changesOf(db: Client, ids: readonly number[]): Promise<Map<number, { stage: ClaimStage; at: string }[]>> {
  const { rows } = await db.execute({
    sql: `SELECT enquiry_id, group_concat(stage || ' ' || changed_ms, ',' ORDER BY changed_ms, id) AS changes
      FROM claim_stage_changes WHERE enquiry_id IN (${placeholders(ids.length)}) GROUP BY enquiry_id`,
    args: [...ids],
  });
  const byClaim = new Map<number, { stage: ClaimStage; at: string }[]>(ids.map((id) => [id, []]));
  for (const row of rows)
    byClaim.set(
      Number(row.enquiry_id),
      String(row.changes)
        .split(',')
        .map((change) => {
          const [stage, ms] = change.split(' ') as [ClaimStage, string];
          return { stage, at: new Date(Number(ms)).toISOString() };
        }),
    );
  return byClaim;
}

/**
 * When each claim's drying started and ended, as the status page's drying summary says it (lib/drying.ts
 * dryingSummary): only once a reading exists; started at the first visit with readings or the first
 * machine switched on, whichever is earlier; ended when the last machine was switched off, once there
 * are machines and none runs. Two queries for the batch.
 */
async function dryingOf(db: Client, ids: readonly number[]): Promise<Map<number, { startedAt: string; endedAt: string | null }>> {
  const list = placeholders(ids.length);
  const [visits, machines] = await Promise.all([
    db.execute({
      sql: `SELECT v.enquiry_id, min(v.visit_ms) AS first_ms FROM drying_visits v
        WHERE v.enquiry_id IN (${list}) AND EXISTS (SELECT 1 FROM drying_readings r WHERE r.visit_id = v.id) GROUP BY v.enquiry_id`,
      args: [...ids],
    }),
    db.execute({
      sql: `SELECT enquiry_id, min(on_at) AS first_on, max(off_at) AS last_off, sum(off_at IS NULL) AS running
        FROM drying_equipment WHERE enquiry_id IN (${list}) GROUP BY enquiry_id`,
      args: [...ids],
    }),
  ]);
  const machinesBy = new Map(machines.rows.map((row) => [Number(row.enquiry_id), row]));
  const drying = new Map<number, { startedAt: string; endedAt: string | null }>();
  for (const visit of visits.rows) {
    const id = Number(visit.enquiry_id);
    const machine = machinesBy.get(id);
    // Machines' times are stored as UTC ISO strings (toISOString), so the least string is the earliest.
    const started = Math.min(Number(visit.first_ms), machine ? Date.parse(String(machine.first_on)) : Infinity);
    const ended = machine && Number(machine.running) === 0 ? new Date(Date.parse(String(machine.last_off))).toISOString() : null;
    drying.set(id, { startedAt: new Date(started).toISOString(), endedAt: ended });
  }
  return drying;
}

type BookedVisit = { date: string; window: SurveyWindowName };

/** Each claim's survey visit booked now, in one query for the batch. */
async function bookedVisitsOf(db: Client, ids: readonly number[]): Promise<Map<number, BookedVisit>> {
  const { rows } = await db.execute({
    sql: `SELECT enquiry_id, date, window FROM survey_appointments WHERE status = 'booked' AND enquiry_id IN (${placeholders(ids.length)})`,
    args: [...ids],
  });
  return new Map(rows.map((row) => [Number(row.enquiry_id), { date: String(row.date), window: String(row.window) as SurveyWindowName }]));
}

/** A booked visit as the row gives it: its window in words, and whether it ends by the survey standard's deadline (counted from the instruction). */
function surveyBookedFor(
  visit: BookedVisit | undefined,
  receivedMs: number,
  context: { standards: OrganisationStandards; hours: WorkingHours },
) {
  if (!visit) return null;
  // The survey standard runs from the instruction (STANDARD_MEASURES.survey).
  const allowance = context.standards.survey;
  const deadline = allowance ? workingDeadline(receivedMs, allowance, context.hours) : null;
  return { words: windowWords(visit), withinStandard: deadline === null ? null : meetsStandard(visit, deadline, context.hours) };
}

const currentStage = (changes: ClaimTimes['changes']): ClaimStage => changes.at(-1)?.stage ?? 'received';

/** When a claim reached its current stage: the first of the latest run of changes to it (a note saved again at the same stage keeps it). */
function stageSince(claim: ClaimTimes, stage: ClaimStage): string {
  let since = claim.receivedAt;
  for (let index = claim.changes.length - 1; index >= 0 && claim.changes[index]!.stage === stage; index -= 1)
    since = claim.changes[index]!.at;
  return since;
}

function rowOf(
  claim: ClaimRecord,
  changes: ClaimTimes['changes'],
  drying: { startedAt: string; endedAt: string | null } | undefined,
  visit: BookedVisit | undefined,
  context: { standards: OrganisationStandards; hours: WorkingHours; now: number },
): PortfolioRow {
  const times: ClaimTimes = { receivedAt: new Date(claim.receivedMs).toISOString(), changes };
  const stage = currentStage(changes);
  const since = stageSince(times, stage);
  const open = stage !== 'completed';
  const completedAt = open ? null : since;
  return {
    reference: claim.reference,
    claimNumber: claim.claimNumber,
    postcode: claim.postcode,
    damage: claim.damageType === null ? null : damageTypeLabel(claim.damageType),
    stage,
    stageSince: since,
    instructedAt: times.receivedAt,
    firstContactAt: firstReachedAt('contacted', times.receivedAt, changes),
    surveyAt: firstReachedAt('surveyed', times.receivedAt, changes),
    reportAt: firstReachedAt('with-insurer', times.receivedAt, changes),
    dryingStartedAt: drying?.startedAt ?? null,
    dryingEndedAt: drying?.endedAt ?? null,
    completedAt,
    daysOpen: Math.max(0, Math.floor(((completedAt === null ? context.now : Date.parse(completedAt)) - claim.receivedMs) / DAY_MS)),
    surveyBookedFor: surveyBookedFor(visit, claim.receivedMs, context),
    open,
    standards: standingsOf(times, context.standards, context.hours, context.now),
  };
}

/**
 * The organisation's claims as the page and the CSV show them, newest first (by instruction, then
 * reference), filtered by current stage and open or closed (closed: completed), as batches of rows:
 * `for await (const rows of portfolioRows(…))`. Nothing for an organisation that does not exist.
 */
export async function* portfolioRows(
  db: Client,
  organisationId: number,
  filter: PortfolioFilter,
  now: number,
  options: Options = {},
): AsyncGenerator<PortfolioRow[]> {
  const standards = await portfolioStandards(db, organisationId);
  if (standards === null) return;
  const context = { standards, hours: options.hours ?? business.openingHours, now };
  const query = { organisationId, filter, sinceMs: null, batchSize: options.batchSize ?? BATCH };
  for await (const claims of claimBatches(db, query)) {
    const ids = claims.map((claim) => claim.id);
    const [changes, drying, visits] = await Promise.all([changesOf(db, ids), dryingOf(db, ids), bookedVisitsOf(db, ids)]);
    // A change saved between the two reads must not put a row under the wrong filter: checked again here.
    const rows = claims
      .map((claim) => rowOf(claim, changes.get(claim.id)!, drying.get(claim.id), visits.get(claim.id), context))
      .filter(
        (row) =>
          (filter.stage === null || row.stage === filter.stage) && (filter.state === 'all' || row.open === (filter.state === 'open')),
      );
    if (rows.length > 0) yield rows;
  }
}

/** The summary above the table: the last 30 days, then the last 90, of every claim of the organisation (no filter). */
export async function portfolioSummary(
  db: Client,
  organisationId: number,
  now: number,
  options: Options = {},
): Promise<[PortfolioPeriod, PortfolioPeriod]> {
  const standards = (await portfolioStandards(db, organisationId)) ?? {};
  const hours = options.hours ?? business.openingHours;
  const rows: PeriodRow[] = [];
  const query = {
    organisationId,
    filter: { stage: null, state: 'all' as const },
    sinceMs: now - 90 * DAY_MS,
    batchSize: options.batchSize ?? BATCH,
  };
  for await (const claims of claimBatches(db, query)) {
    const changes = await changesOf(
      db,
      claims.map((claim) => claim.id),
    );
    for (const claim of claims) {
      const times: ClaimTimes = { receivedAt: new Date(claim.receivedMs).toISOString(), changes: changes.get(claim.id)! };
      rows.push({
        instructedAt: times.receivedAt,
        firstContactAt: firstReachedAt('contacted', times.receivedAt, times.changes),
        surveyAt: firstReachedAt('surveyed', times.receivedAt, times.changes),
        open: currentStage(times.changes) !== 'completed',
        standards: standingsOf(times, standards, hours, now),
      });
    }
  }
  return [portfolioPeriod(rows, 30, standards, hours, now), portfolioPeriod(rows, 90, standards, hours, now)];
}
