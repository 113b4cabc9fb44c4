import type { DryingScale, EquipmentKind, Material } from '@/lib/drying-terms';

/**
 * The staff page's "Record a visit" form: its field names (a row per location, a row per machine,
 * numbered from 0) and what it shows after a Save. The server turns the form into the same visit the
 * CRM's `claim.drying_recorded` event carries and checks it with the same schema (lib/drying.ts).
 */
export const READING_FIELDS = ['location', 'material', 'scale', 'value', 'goal'] as const;
export const MACHINE_FIELDS = ['kind', 'model', 'watts', 'count', 'on', 'off', 'kwh'] as const;
export type ReadingField = (typeof READING_FIELDS)[number];
export type MachineField = (typeof MACHINE_FIELDS)[number];

export const readingFieldName = (row: number, field: ReadingField) => `readings.${row}.${field}`;
export const machineFieldName = (row: number, field: MachineField) => `equipment.${row}.${field}`;

/** Empty rows the form offers beside the locations and machines already recorded. */
export const BLANK_READING_ROWS = 3;
export const BLANK_MACHINE_ROWS = 2;

/** A row the form starts with: a location already read (its reading left to fill in), a machine still running. */
export type KnownLocation = { location: string; material: Material; scale: DryingScale; goal: number };
export type KnownMachine = { kind: EquipmentKind; model: string; watts: number; count: number; on: string };

export type StaffVisitState =
  | { kind: 'idle' }
  /** `formToken`: the next Save's (each visit is recorded once, by its form token). */
  | { kind: 'saved'; message: string; formToken: string }
  /** `errors` by field name (`visitAt`, `readings.0.value`…); `values`: what was entered. */
  | { kind: 'refused'; message: string; errors: Record<string, string>; values: Record<string, string> };
