import type { ClaimStage } from '@/lib/claim-stages';
import { workingDeadline, type WorkingAllowance, type WorkingHours } from '@/lib/working-time';

/**
 * The times an insurer or a loss adjuster looks for on an instruction, each the first time its claim
 * reached a stage (first contact: any stage past it, REACHED_BY): the instruction received (the enquiry itself), first contact with the policyholder,
 * the survey, and the report: the company has no stage of its own for sending the report and
 * reinstatement schedule, which is what moves a claim to `with-insurer`, so that stage's first time is
 * when the report went. On a claim that has been drying out, also when drying started and when the
 * claim was dried (every location at its goal): a standard in content/business.ts may measure either.
 */
export const STAMPED_STAGES = [
  'received',
  'contacted',
  'surveyed',
  'with-insurer',
  'drying',
  'dried',
] as const satisfies readonly ClaimStage[];
export type StampedStage = (typeof STAMPED_STAGES)[number];

/** Stamped only on a claim that has been drying out: most repairs have no drying, and no row says "not yet" for it. */
const DRYING_STAMPS: readonly StampedStage[] = ['drying', 'dried'];

/**
 * The stages that show a stamp was reached. Any move but a hold means the policyholder was contacted
 * (staff who book the survey on the first call never save `contacted`); a survey and a report only by
 * their own stages, since a claim assessed from the desk has neither, and the page must not claim one.
 */
export const REACHED_BY: Record<Exclude<StampedStage, 'received'>, readonly ClaimStage[]> = {
  contacted: [
    'contacted',
    'survey-booked',
    'surveyed',
    'with-insurer',
    'authorised',
    'drying',
    'dried',
    'works-booked',
    'works-started',
    'completed',
  ],
  surveyed: ['surveyed'],
  'with-insurer': ['with-insurer'],
  // A claim saved straight to `dried` had its readings taken: it was drying.
  drying: ['drying', 'dried'],
  dried: ['dried'],
};

/** Stages a claim reaches only after a survey or a report would have been due: moved past without one, the standard did not apply. */
export const PASSED_BY: Partial<Record<StampedStage, readonly ClaimStage[]>> = {
  surveyed: ['with-insurer', 'authorised', 'works-booked', 'works-started', 'completed'],
  'with-insurer': ['authorised', 'works-booked', 'works-started', 'completed'],
  dried: ['works-booked', 'works-started', 'completed'],
};

/** What a response standard promises in terms the stages can show: from one stamp to another, within working time. */
export type ResponseMeasure = { from: StampedStage; to: StampedStage; within: WorkingAllowance };

/** The company's standards as content/business.ts gives them; only those with a measure are stamped against. */
export type ResponseStandards = {
  placeholder: boolean;
  responseStandards: readonly { term: string; detail: string; measure?: ResponseMeasure }[];
};

/**
 * How a stamp stands against its standard: reached in time (met) or late (missed); not reached and
 * still in time (due, by the deadline); or not measured yet because the time it counts from is not there.
 */
export type StampOutcome = { kind: 'met' } | { kind: 'missed' } | { kind: 'due'; by: string } | { kind: 'not-measured' };

export type InsurerStamp = {
  stage: StampedStage;
  /** When the claim first reached the stage (ISO), or null. */
  at: string | null;
  /** The company's own standard for this stamp and how it stands; null when it has none (or has not confirmed them). */
  standard: { term: string; detail: string; outcome: StampOutcome } | null;
};

export type InsurerTimes = {
  /** False while the standards are placeholders: the times are shown, no standard and no met or missed. */
  standardsConfirmed: boolean;
  stamps: readonly InsurerStamp[];
};

export type InsurerTimesInput = {
  receivedAt: string;
  /** The claim's changes of stage, in the order they were made. */
  changes: readonly { stage: ClaimStage; at: string }[];
  standards: ResponseStandards;
  hours: WorkingHours;
  now: number;
};

/** When a claim first reached a stamp (ISO), or null: the instruction itself for `received`, else its first change that shows it. */
export function firstReachedAt(
  stage: StampedStage,
  receivedAt: string,
  changes: readonly { stage: ClaimStage; at: string }[],
): string | null {
  return stage === 'received' ? receivedAt : (changes.find((change) => REACHED_BY[stage].includes(change.stage))?.at ?? null);
}

/** Whether a claim moved on past a stamp it never reached (a desk assessment has no survey): no standard for it applies. */
export const passedWithout = (stage: StampedStage, changes: readonly { stage: ClaimStage }[]): boolean =>
  changes.some((change) => PASSED_BY[stage]?.includes(change.stage));

function outcomeOf(fromAt: string | null, toAt: string | null, measure: ResponseMeasure, input: InsurerTimesInput): StampOutcome {
  if (fromAt === null) return { kind: 'not-measured' };
  const deadline = workingDeadline(Date.parse(fromAt), measure.within, input.hours);
  if (toAt !== null) return Date.parse(toAt) <= deadline ? { kind: 'met' } : { kind: 'missed' };
  if (passedWithout(measure.to, input.changes)) return { kind: 'not-measured' };
  return input.now > deadline ? { kind: 'missed' } : { kind: 'due', by: new Date(deadline).toISOString() };
}

/** An instruction's stamped times, each beside the company's standard for it once the standards are confirmed. */
export function insurerTimes(input: InsurerTimesInput): InsurerTimes {
  const firstAt = (stage: StampedStage): string | null => firstReachedAt(stage, input.receivedAt, input.changes);
  const confirmed = !input.standards.placeholder;
  const dried = firstAt('drying') !== null;
  return {
    standardsConfirmed: confirmed,
    stamps: STAMPED_STAGES.filter((stage) => dried || !DRYING_STAMPS.includes(stage)).map((stage) => {
      const at = firstAt(stage);
      const standard = confirmed ? input.standards.responseStandards.find((each) => each.measure?.to === stage) : undefined;
      return {
        stage,
        at,
        standard:
          standard?.measure === undefined
            ? null
            : {
                term: standard.term,
                detail: standard.detail,
                outcome: outcomeOf(firstAt(standard.measure.from), at, standard.measure, input),
              },
      };
    }),
  };
}
