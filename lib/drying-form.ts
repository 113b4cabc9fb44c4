import type { DryingScale, EquipmentKind, Material } from '@/lib/drying-terms';

/**
 * The staff page's "Record a visit" form: its field names (a row per location, a row per machine,
 * numbered from 0) and what it shows after a Save. The server turns the form into the same visit the
 * CRM's `claim.drying_recorded` event carries and checks it with the same schema (lib/drying.ts).
 *
 * A machine already recorded is a row carrying its stored id (`equipment.N.id`): only its count, its
 * off time and its meter's kWh can be given, and a row posted as it was served (off and kWh empty, the
 * count as recorded) changes nothing. A row without an id is a new machine.
 */
export const READING_FIELDS = ['location', 'material', 'scale', 'value', 'goal'] as const;
export const MACHINE_FIELDS = ['kind', 'model', 'watts', 'count', 'on', 'off', 'kwh'] as const;
export type ReadingField = (typeof READING_FIELDS)[number];
export type MachineField = (typeof MACHINE_FIELDS)[number] | 'id';

export const readingFieldName = (row: number, field: ReadingField) => `readings.${row}.${field}`;
export const machineFieldName = (row: number, field: MachineField) => `equipment.${row}.${field}`;
/** The box that confirms a reading above its goal on a claim already at `dried`. */
export const CONFIRM_WET_FIELD = 'confirmWet';

/** Empty rows the form offers beside the locations and machines already recorded. */
export const BLANK_READING_ROWS = 3;
export const BLANK_MACHINE_ROWS = 2;

/** A row the form starts with: a location already read (its reading left to fill in), a machine still running. */
export type KnownLocation = { location: string; material: Material; scale: DryingScale; goal: number };
export type KnownMachine = { id: number; kind: EquipmentKind; model: string; watts: number; count: number; on: string };

export type StaffVisitState =
  | { kind: 'idle' }
  /** `formToken`: the next Save's (each visit is recorded once, by its form token). */
  | { kind: 'saved'; message: string; formToken: string }
  /**
   * `errors` by field name (`visitAt`, `readings.0.value`…); `values`: what was entered, with the form
   * token the form goes on with (`values.formToken`).
   */
  | { kind: 'refused'; message: string; errors: Record<string, string>; values: Record<string, string> };

/** A number thousands-grouped the UK way: "1,250" or "1,250.5". */
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * A number typed on the staff page, the UK way: a point is the decimal separator and a comma only
 * groups thousands ("1,250" is 1250, "12.5" is 12.5). Any other comma ("12,5", "1,25") is refused
 * (`'comma'`) rather than guessed. Empty: undefined; not a number: NaN (the schema names it).
 */
export function parseDecimal(text: string): number | undefined | 'comma' {
  const value = text.trim();
  if (value === '') return undefined;
  if (value.includes(',')) return GROUPED.test(value) ? Number(value.replaceAll(',', '')) : 'comma';
  return Number(value);
}
