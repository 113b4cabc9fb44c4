import 'server-only';
import { staffVisitText } from '@/content/drying';
import {
  DRYING_LIMITS,
  dryingTimeErrors,
  fieldPath,
  machineChangeSchema,
  staffVisitDataSchema,
  type DryingVisitInput,
  type FieldError,
  type MachineChange,
} from '@/lib/drying';
import {
  MACHINE_FIELDS,
  READING_FIELDS,
  machineFieldName,
  parseDecimal,
  readingFieldName,
  type MachineField,
  type ReadingField,
} from '@/lib/drying-form';
import { instantAtLocal } from '@/lib/zone-clock';

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
/** The most rows the form is read for: beyond the limits of a visit, so one row too many is refused, not dropped. */
const MAX_ROWS = 100;

/** A `datetime-local` value on the London clock ("2026-12-03T10:00") as an ISO instant, or null. */
function londonInstant(value: string): string | null {
  const parts = LOCAL_DATE_TIME.exec(value.trim());
  if (!parts) return null;
  const [year, month, day, hour, minute] = parts.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  return new Date(instantAtLocal({ year, month, day }, hour * 60 + minute, 'Europe/London')).toISOString();
}

export type FormMachineChange = MachineChange & { row: number };

export type VisitOfForm =
  | {
      ok: true;
      visit: DryingVisitInput;
      /** Rows of machines already recorded, by their stored id: the server keeps only those that change something. */
      changes: FormMachineChange[];
      /** The form's row of each of `visit.readings`. */
      readingRows: number[];
    }
  | { ok: false; errors: Record<string, string>; message: string };

/**
 * The staff page's visit form as the visit the CRM's event carries, checked by the same schema. A
 * location row is recorded when it has a reading; a machine row with an id is a machine already
 * recorded (its count, off time and meter kWh, each as typed); a row without one is a new machine when
 * it has a model. Each error is given under the form's own field (`readings.2.value`). Times as the
 * CRM's: not in the future, at most 90 days before the enquiry. Numbers the UK way (`parseDecimal`).
 */
export function visitOfForm(form: FormData, reference: string, bounds: VisitBounds): VisitOfForm {
  const reader = formReader(form);
  const { text, errors } = reader;
  const visitAt = londonInstant(text('visitAt'));
  if (!visitAt) errors.visitAt = staffVisitText.badTime;
  const { readings, readingRows } = readingsOfForm(reader);
  const machines = machinesOfForm(reader, bounds);
  if ('refused' in machines) return { ok: false, errors: {}, message: machines.refused };
  const { equipment, machineRows, changes } = machines;
  if (readings.length + equipment.length + changes.length === 0 && Object.keys(errors).length === 0)
    return { ok: false, errors, message: staffVisitText.empty };
  if (Object.keys(errors).length > 0) return { ok: false, errors, message: staffVisitText.invalid };

  const parsed = staffVisitDataSchema.safeParse({ reference, visitAt, readings, equipment });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({ path: `data.${fieldPath(issue.path)}`, msg: issue.message }));
    return { ok: false, errors: formErrors(problems, readingRows, machineRows), message: staffVisitText.invalid };
  }
  const problems = dryingTimeErrors(parsed.data, bounds);
  if (problems.length === 0) return { ok: true, visit: parsed.data, changes, readingRows };
  return { ok: false, errors: formErrors(problems, readingRows, machineRows), message: staffVisitText.invalid };
}

type VisitBounds = { now: number; receivedMs: number };

/** The form's fields as text and numbers, gathering each field's error under its name as it is read. */
type FormReader = {
  form: FormData;
  text: (name: string) => string;
  number: (name: string, label: string) => number | undefined;
  errors: Record<string, string>;
};

function formReader(form: FormData): FormReader {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const errors: Record<string, string> = {};
  /** A number field; a comma that is not a thousands separator is refused naming the field. */
  const number = (name: string, label: string) => {
    const parsed = parseDecimal(text(name));
    if (parsed !== 'comma') return parsed;
    errors[name] = staffVisitText.fieldError(label, staffVisitText.badComma);
    return undefined;
  };
  return { form, text, number, errors };
}

/** The location rows that have a reading, with the form's row of each. */
function readingsOfForm({ form, text, number }: FormReader) {
  const readingRows: number[] = [];
  const readings = [];
  for (let row = 0; row < MAX_ROWS && form.has(readingFieldName(row, 'location')); row += 1) {
    const field = (name: ReadingField) => text(readingFieldName(row, name));
    if (field('value').trim() === '') continue;
    readingRows.push(row);
    readings.push({
      location: field('location'),
      material: field('material'),
      scale: field('scale'),
      value: number(readingFieldName(row, 'value'), staffVisitText.labels.value),
      goal: number(readingFieldName(row, 'goal'), staffVisitText.labels.goal),
    });
  }
  return { readings, readingRows };
}

type MachinesOfForm = {
  /** As typed, before the schema checks them. */
  equipment: {
    kind: string;
    model: string;
    watts: number | undefined;
    count: number | undefined;
    on: string;
    off: string | null;
    kwh: number | null;
  }[];
  machineRows: number[];
  changes: FormMachineChange[];
};

/**
 * The machine rows: changes to machines already recorded (by id) and new machines (with a model), or
 * `refused` when an id is not the page's own (a page out of date).
 */
function machinesOfForm(reader: FormReader, bounds: VisitBounds): MachinesOfForm | { refused: string } {
  const { form, text, number, errors } = reader;
  const machineRows: number[] = [];
  const equipment: MachinesOfForm['equipment'] = [];
  const changes: FormMachineChange[] = [];
  const changedIds = new Set<number>();
  const isRow = (row: number) => form.has(machineFieldName(row, 'id')) || form.has(machineFieldName(row, 'model'));
  for (let row = 0; row < MAX_ROWS && isRow(row); row += 1) {
    const name = (field: MachineField) => machineFieldName(row, field);
    const field = (which: MachineField) => text(name(which));
    const off = offTimeOfRow(reader, row, bounds);
    const count = number(name('count'), staffVisitText.machineLabels.count);
    const kwh = number(name('kwh'), staffVisitText.machineLabels.kwh);
    if (form.has(name('id'))) {
      const id = Number(field('id'));
      // The id is the page's own, not typed: a bad or repeated one is a page out of date.
      if (!Number.isSafeInteger(id) || id <= 0) return { refused: staffVisitText.unknownMachine };
      if (changedIds.has(id)) return { refused: staffVisitText.machineTwice };
      changedIds.add(id);
      const change = machineChangeSchema.safeParse({ id, count: count ?? null, off, kwh: kwh ?? null });
      if (change.success) changes.push({ ...change.data, row });
      else
        for (const issue of change.error.issues) {
          const which = String(issue.path[0] ?? 'id') as MachineField;
          errors[name(which)] ??= staffVisitText.fieldError(machineLabel(which), issue.message);
        }
      continue;
    }
    if (field('model').trim() === '') continue;
    const on = londonInstant(field('on'));
    if (!on) errors[name('on')] = staffVisitText.badTime;
    machineRows.push(row);
    equipment.push({
      kind: field('kind'),
      model: field('model'),
      watts: number(name('watts'), staffVisitText.machineLabels.watts),
      count,
      on: on ?? '',
      off,
      kwh: kwh ?? null,
    });
  }
  return { equipment, machineRows, changes };
}

/** A machine row's off time (null when blank or unreadable), with its error when it is unreadable or out of bounds. */
function offTimeOfRow({ text, errors }: FormReader, row: number, bounds: VisitBounds): string | null {
  const name = machineFieldName(row, 'off');
  const off = text(name).trim() === '' ? null : londonInstant(text(name));
  if (off === null && text(name).trim() !== '') errors[name] = staffVisitText.badTime;
  else if (off !== null) {
    const late = offTimeError(off, bounds);
    if (late) errors[name] = staffVisitText.fieldError(staffVisitText.machineLabels.off, late);
  }
  return off;
}

const DAY_MS = 24 * 60 * 60_000;

/** An off time as `dryingTimeErrors` checks a visit's: not in the future, not too long before the enquiry. */
function offTimeError(off: string, bounds: VisitBounds): string | null {
  const at = Date.parse(off);
  if (at > bounds.now) return 'must not be in the future';
  if (at < bounds.receivedMs - DRYING_LIMITS.daysBeforeEnquiry * DAY_MS)
    return `must not be more than ${DRYING_LIMITS.daysBeforeEnquiry} days before the enquiry`;
  return null;
}

const machineLabel = (field: MachineField) => (field === 'id' ? '' : staffVisitText.machineLabels[field]);

const FIELD_PATH = /^data\.(readings|equipment)\[(\d+)\]\.(\w+)$/;

/** The schema's errors (`data.readings[0].value`) under the form's fields, with the field's label. */
export function formErrors(
  errors: readonly FieldError[],
  readingRows: readonly number[],
  machineRows: readonly number[],
): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const error of errors) {
    const match = FIELD_PATH.exec(error.path);
    if (match) {
      const [, list, index, field] = match as unknown as [string, 'readings' | 'equipment', string, string];
      if (list === 'readings' && (READING_FIELDS as readonly string[]).includes(field)) {
        const name = field as ReadingField;
        byField[readingFieldName(readingRows[Number(index)] ?? 0, name)] ??= staffVisitText.fieldError(
          staffVisitText.labels[name],
          error.msg,
        );
        continue;
      }
      if (list === 'equipment' && (MACHINE_FIELDS as readonly string[]).includes(field)) {
        const name = field as Exclude<MachineField, 'id'>;
        byField[machineFieldName(machineRows[Number(index)] ?? 0, name)] ??= staffVisitText.fieldError(
          staffVisitText.machineLabels[name],
          error.msg,
        );
        continue;
      }
    }
    const name = error.path === 'data.visitAt' ? 'visitAt' : 'visit';
    byField[name] ??= error.path === 'data.visitAt' ? staffVisitText.fieldError(staffVisitText.visitAt, error.msg) : error.msg;
  }
  return byField;
}
