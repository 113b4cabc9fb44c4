/**
 * How each claim of an instructing organisation's portfolio stands against the standards it is held to,
 * and the summary of the last 30 and 90 days above the table. A stamp is reached by the same stages as
 * on the claim's status page (lib/insurer-times.ts REACHED_BY and PASSED_BY); time is counted on the
 * company's working clock (lib/working-time.ts) for working hours and days, every hour for plain hours.
 *
 * Words (decision 0061): "met"; "missed by 3 h" and "due in 5 h" in whole hours of the standard's own
 * time, rounded up ("missed by 3 h" is late by more than 2 h and at most 3 h); under an hour, whole
 * minutes, at least 1 ("missed by 20 min"). Never days: a working day is 9 opening hours, not 24, and
 * "3 working days" ends at closing, so hours are the one unit that reads the same for every standard.
 */
import type { ClaimStage } from '@/lib/claim-stages';
import { firstReachedAt, passedWithout, type ResponseStandards } from '@/lib/insurer-times';
import type { PortfolioPeriod, PortfolioRow, StandardStanding } from '@/lib/portfolio/portfolio-row';
import {
  STANDARD_KEYS,
  STANDARD_MEASURES,
  standardsFor,
  type Allowance,
  type OrganisationStandards,
  type StandardKey,
} from '@/lib/portfolio/standards';
import { timeCounted, workingDeadline, workingTimeBetween, type WorkingHours } from '@/lib/working-time';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A claim's times as the standings read them: when it was instructed and its changes of stage, oldest first. */
export type ClaimTimes = { receivedAt: string; changes: readonly { stage: ClaimStage; at: string }[] };

/**
 * The standards an organisation is held to: its own, and for a measure it set none for, the company's
 * published ones, but only once the company has confirmed them (`placeholder` false), as the status
 * page does: nothing may be judged against a figure the company has not set.
 */
export function heldStandards(own: OrganisationStandards | null, company: ResponseStandards): OrganisationStandards {
  return standardsFor(own, company.placeholder ? [] : company.responseStandards);
}

/** An amount of time as a standing says it: whole hours rounded up, or under an hour whole minutes (at least 1). */
export function durationWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  return minutes < 60 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}

/** How a claim stands against one standard at `now`. */
export function standardStanding(
  claim: ClaimTimes,
  key: StandardKey,
  allowance: Allowance,
  hours: WorkingHours,
  now: number,
): StandardStanding {
  const measure = STANDARD_MEASURES[key];
  const fromAt = firstReachedAt(measure.from, claim.receivedAt, claim.changes);
  if (fromAt === null) return { kind: 'not-measured', words: '' };
  const deadline = workingDeadline(Date.parse(fromAt), allowance, hours);
  const toAt = firstReachedAt(measure.to, claim.receivedAt, claim.changes);
  if (toAt === null && passedWithout(measure.to, claim.changes)) return { kind: 'not-measured', words: '' };
  const reached = toAt === null ? null : Date.parse(toAt);
  if (reached !== null && reached <= deadline) return { kind: 'met', words: 'met' };
  if (reached === null && now <= deadline) {
    const inMs = timeCounted(now, deadline, allowance, hours);
    return { kind: 'due', inMs, words: `due in ${durationWords(inMs)}` };
  }
  const byMs = timeCounted(deadline, reached ?? now, allowance, hours);
  return { kind: 'missed', byMs, words: `missed by ${durationWords(byMs)}` };
}

/** A claim's standing against each standard it is held to, in the order of STANDARD_KEYS. */
export function standingsOf(
  claim: ClaimTimes,
  standards: OrganisationStandards,
  hours: WorkingHours,
  now: number,
): Partial<Record<StandardKey, StandardStanding>> {
  const standings: Partial<Record<StandardKey, StandardStanding>> = {};
  for (const key of STANDARD_KEYS) {
    const allowance = standards[key];
    if (allowance) standings[key] = standardStanding(claim, key, allowance, hours, now);
  }
  return standings;
}

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = values.sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** What a period's summary reads of a row. */
export type PeriodRow = Pick<PortfolioRow, 'instructedAt' | 'firstContactAt' | 'surveyAt' | 'open' | 'standards'>;

/**
 * The summary of the claims instructed in the last `days` days (on the plain clock: after `now` less
 * that many 24 hours): how many, how many of those are still open, the median working hours from the
 * instruction to first contact and to the survey (of those that reached it), and per standard held, the
 * share met of those measured (met or missed; a claim still due or not measured is not counted).
 */
export function portfolioPeriod(
  rows: Iterable<PeriodRow>,
  days: 30 | 90,
  standards: OrganisationStandards,
  hours: WorkingHours,
  now: number,
): PortfolioPeriod {
  const since = now - days * DAY_MS;
  const keys = STANDARD_KEYS.filter((key) => standards[key]);
  const toContact: number[] = [];
  const toSurvey: number[] = [];
  const counts = new Map<StandardKey, { met: number; measured: number }>(keys.map((key) => [key, { met: 0, measured: 0 }]));
  let instructed = 0;
  let open = 0;
  for (const row of rows) {
    const instructedMs = Date.parse(row.instructedAt);
    if (instructedMs <= since || instructedMs > now) continue;
    instructed += 1;
    if (row.open) open += 1;
    if (row.firstContactAt) toContact.push(workingTimeBetween(instructedMs, Date.parse(row.firstContactAt), hours) / HOUR_MS);
    if (row.surveyAt) toSurvey.push(workingTimeBetween(instructedMs, Date.parse(row.surveyAt), hours) / HOUR_MS);
    for (const key of keys) {
      const standing = row.standards[key];
      const count = counts.get(key)!;
      if (standing?.kind === 'met' || standing?.kind === 'missed') count.measured += 1;
      if (standing?.kind === 'met') count.met += 1;
    }
  }
  return {
    days,
    instructed,
    open,
    medianToContactHours: median(toContact),
    medianToSurveyHours: median(toSurvey),
    standardsMet: Object.fromEntries(
      keys.map((key) => {
        const { met, measured } = counts.get(key)!;
        return [key, { share: measured === 0 ? null : met / measured, measured }];
      }),
    ),
  };
}
