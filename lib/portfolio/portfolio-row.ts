/**
 * One claim of an instructing organisation's portfolio, as the page shows it and the CSV writes it (the
 * same rows, the same order): only what the organisation sent or is entitled to. No customer e-mail, no
 * phone number, no support needs.
 */
import type { ClaimStage } from '@/lib/claim-stages';
import type { StandardKey } from '@/lib/portfolio/standards';

/** How a claim stands against one standard; `words` is what the page and the CSV say. */
export type StandardStanding =
  | { kind: 'met'; words: 'met' }
  /** Reached late, or not reached and past its deadline; `byMs` how late, in the standard's own time (working or plain). */
  | { kind: 'missed'; byMs: number; words: string }
  /** Not reached, still in time; `inMs` left, in the standard's own time. */
  | { kind: 'due'; inMs: number; words: string }
  /** Nothing to measure yet (its start not reached), or moved past without it (a desk assessment). */
  | { kind: 'not-measured'; words: '' };

export type PortfolioRow = {
  /** Our reference, HC-XXX-XXX: it links to the claim's status page. */
  reference: string;
  /** Their claim number, as their instruction gave it. */
  claimNumber: string | null;
  postcode: string | null;
  /** The damage as the form's list words it. */
  damage: string | null;
  stage: ClaimStage;
  /** When the claim reached its stage (ISO 8601, UTC). */
  stageSince: string;
  /** ISO 8601 (UTC) instants; null when not reached. */
  instructedAt: string;
  firstContactAt: string | null;
  surveyAt: string | null;
  reportAt: string | null;
  dryingStartedAt: string | null;
  dryingEndedAt: string | null;
  completedAt: string | null;
  /** Whole days from instruction to completion, or to now while open. */
  daysOpen: number;
  /**
   * The survey visit booked now: its window in words, and whether the window ends by the survey standard's
   * deadline (null when no survey standard is held); null when none is booked.
   */
  surveyBookedFor: { words: string; withinStandard: boolean | null } | null;
  open: boolean;
  standards: Partial<Record<StandardKey, StandardStanding>>;
};

/** The page's filters, from its query string; the CSV link carries the same. */
export type PortfolioFilter = { stage: ClaimStage | null; state: 'open' | 'closed' | 'all' };

/** One period of the summary above the table (the last 30 or 90 days). */
export type PortfolioPeriod = {
  days: 30 | 90;
  instructed: number;
  open: number;
  /** Median working hours from instruction to first contact, and to survey; null with none reached. */
  medianToContactHours: number | null;
  medianToSurveyHours: number | null;
  /** Share of the measured claims that met each standard (0 to 1), and of how many; null with none measured. */
  standardsMet: Partial<Record<StandardKey, { share: number | null; measured: number }>>;
};
