/**
 * An instructing organisation's response standards: what each measures (from one stamp of a claim to
 * another, as lib/insurer-times.ts names them) and how long it allows. The operator writes them as
 * `contact=2h` (working hours), `survey=3wd` (working days, ending at closing on the last) or
 * `report=48ph` (plain hours: every hour of the clock counts). An organisation with none of its own is
 * held to the company's published standards (content/business.ts).
 */
import type { StampedStage } from '@/lib/insurer-times';
import type { WorkingAllowance } from '@/lib/working-time';

export const STANDARD_KEYS = ['contact', 'survey', 'report'] as const;
export type StandardKey = (typeof STANDARD_KEYS)[number];

/** Working time (hours or days), or plain hours on the clock. */
export type Allowance = WorkingAllowance | { plainHours: number };

export type OrganisationStandards = Partial<Record<StandardKey, Allowance>>;

/** What each standard measures, and its heading on the portfolio page and in its CSV. */
export const STANDARD_MEASURES: Record<StandardKey, { from: StampedStage; to: StampedStage; heading: string }> = {
  contact: { from: 'received', to: 'contacted', heading: 'First contact' },
  survey: { from: 'received', to: 'surveyed', heading: 'Survey' },
  report: { from: 'surveyed', to: 'with-insurer', heading: 'Report' },
};

const STANDARD_PATTERN = /^(contact|survey|report)=([1-9][0-9]{0,3})(h|wd|ph)$/;

/** One `--standard` of the operator's command, or why it cannot be one. */
export function parseStandard(text: string): { key: StandardKey; allowance: Allowance } | { error: string } {
  const match = STANDARD_PATTERN.exec(text.trim());
  if (!match)
    return {
      error: `"${text}" is not a standard: write contact=2h (working hours), survey=3wd (working days) or report=48ph (plain hours), for contact, survey or report.`,
    };
  const amount = Number(match[2]);
  const allowance: Allowance =
    match[3] === 'h' ? { workingHours: amount } : match[3] === 'wd' ? { workingDays: amount } : { plainHours: amount };
  return { key: match[1] as StandardKey, allowance };
}

/** The operator's own words for an allowance, as `--standard` takes it. */
export function allowanceCode(allowance: Allowance): string {
  if ('workingHours' in allowance) return `${allowance.workingHours}h`;
  if ('workingDays' in allowance) return `${allowance.workingDays}wd`;
  return `${allowance.plainHours}ph`;
}

/** An allowance in words, as the page and the CSV show it. */
export function allowanceWords(allowance: Allowance): string {
  const plural = (amount: number, unit: string) => `${amount} ${unit}${amount === 1 ? '' : 's'}`;
  if ('workingHours' in allowance) return plural(allowance.workingHours, 'working hour');
  if ('workingDays' in allowance) return plural(allowance.workingDays, 'working day');
  return plural(allowance.plainHours, 'hour');
}

/** The standards an organisation is held to: its own where it has them, else the company's published ones for the same measure. */
export function standardsFor(
  own: OrganisationStandards | null,
  published: readonly { measure?: { from: StampedStage; to: StampedStage; within: WorkingAllowance } }[],
): OrganisationStandards {
  const held: OrganisationStandards = {};
  for (const key of STANDARD_KEYS) {
    const measure = STANDARD_MEASURES[key];
    const companys = published.find((standard) => standard.measure?.from === measure.from && standard.measure.to === measure.to)?.measure
      ?.within;
    const allowance = own?.[key] ?? companys;
    if (allowance) held[key] = allowance;
  }
  return held;
}

/**
 * Its own standards as stored (organisations.standards JSON: `{"contact":{"workingHours":2}}`, or the
 * operator's codes, `{"contact":"2h"}`); anything not a well-formed allowance is ignored.
 */
export function readStoredStandards(json: string | null): OrganisationStandards | null {
  if (json === null) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null) return null;
  const own: OrganisationStandards = {};
  for (const key of STANDARD_KEYS) {
    const allowance = (stored as Record<string, unknown>)[key];
    if (isAllowance(allowance)) own[key] = allowance;
    else if (typeof allowance === 'string') {
      const parsed = parseStandard(`${key}=${allowance}`);
      if ('allowance' in parsed) own[key] = parsed.allowance;
    }
  }
  return own;
}

const isAllowance = (value: unknown): value is Allowance => {
  if (typeof value !== 'object' || value === null) return false;
  const entries = Object.entries(value);
  return (
    entries.length === 1 &&
    ['workingHours', 'workingDays', 'plainHours'].includes(entries[0]![0]) &&
    Number.isInteger(entries[0]![1]) &&
    Number(entries[0]![1]) > 0
  );
};
