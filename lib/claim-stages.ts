import type { DryingSummary } from '@/lib/drying';
import type { InsurerTimes } from '@/lib/insurer-times';

/**
 * Where a claim's repair stands, after the enquiry: one short list, the name a CRM sends beside the
 * words shown to people. Every stored enquiry starts at `received`; a stage can go back (a survey
 * re-booked), and each change is kept with its time.
 */
export const CLAIM_STAGES = [
  { name: 'received', words: 'Received' },
  { name: 'contacted', words: 'Contacted' },
  { name: 'survey-booked', words: 'Survey booked' },
  { name: 'surveyed', words: 'Surveyed' },
  { name: 'with-insurer', words: 'With your insurer' },
  { name: 'authorised', words: 'Authorised' },
  { name: 'drying', words: 'Drying out' },
  /** Only when every location of the drying record has met its goal (lib/drying.ts driedRefusal). */
  { name: 'dried', words: 'Dried: ready for repairs' },
  { name: 'works-booked', words: 'Works booked' },
  { name: 'works-started', words: 'Works under way' },
  { name: 'completed', words: 'Completed' },
  { name: 'on-hold', words: 'On hold' },
] as const;

export type ClaimStage = (typeof CLAIM_STAGES)[number]['name'];
export const CLAIM_STAGE_NAMES = CLAIM_STAGES.map((stage) => stage.name) as readonly ClaimStage[];

export const isClaimStage = (value: unknown): value is ClaimStage =>
  typeof value === 'string' && (CLAIM_STAGE_NAMES as readonly string[]).includes(value);

export const stageWords = (stage: ClaimStage): string => CLAIM_STAGES.find((each) => each.name === stage)?.words ?? stage;

/** Whose move it is: the company's, the insurer's, or the customer's. */
export const WAITING_ON = [
  { name: 'us', words: 'Us' },
  { name: 'insurer', words: 'Your insurer' },
  { name: 'customer', words: 'You' },
] as const;

export type WaitingOn = (typeof WAITING_ON)[number]['name'];

export const isWaitingOn = (value: unknown): value is WaitingOn =>
  typeof value === 'string' && WAITING_ON.some((each) => each.name === value);

export const waitingOnWords = (waitingOn: WaitingOn): string => WAITING_ON.find((each) => each.name === waitingOn)?.words ?? waitingOn;

/**
 * A claim's status as its customer, its insurer and its adjuster see it: the reference, the stage,
 * whose move it is, the next date, each stage reached with its time and the company's note, and the
 * drying record's readings and machines. Nothing else of the enquiry: no name, address, message or photo.
 */
export type ClaimStatus = {
  reference: string;
  stage: ClaimStage;
  waitingOn: WaitingOn | null;
  nextDate: string | null;
  timeline: readonly { stage: ClaimStage; at: string; note: string | null }[];
  /** Only on an insurer's or a loss adjuster's instruction: its stamped times against the company's standards. */
  insurer?: InsurerTimes | null;
  /** Once a reading exists: each location's readings against its goal, days drying, machines in the house. */
  drying?: DryingSummary | null;
};

/** What the look-up form shows: nothing yet, the status it found, or why not (with what was typed). */
export type TrackState =
  | { kind: 'idle' }
  | { kind: 'found'; status: ClaimStatus }
  | { kind: 'refused'; message: string; values: { reference: string; email: string } };

/** What the staff page shows after a Save: nothing yet, saved, or what was wrong (with what was entered). */
export type StaffUpdateState =
  | { kind: 'idle' }
  /** `formToken`: the next Save's (each Save is recorded once, by its form token). */
  | { kind: 'saved'; message: string; formToken: string }
  | {
      kind: 'refused';
      message: string;
      errors: Partial<Record<'stage' | 'nextDate' | 'note' | 'confirmedBy', string>>;
      values: Record<string, string>;
    };

export const NOTE_MAX = 1000;
/** The name saved with `dried`: who confirmed drying. */
export const CONFIRMED_BY_MAX = 80;
