import 'server-only';
import { staffVisitText } from '@/content/drying';
import { dryingTimeErrors, parseDryingRecorded, type DryingVisitInput, type FieldError } from '@/lib/drying';
import {
  MACHINE_FIELDS,
  READING_FIELDS,
  machineFieldName,
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

const number = (value: string) => (value.trim() === '' ? undefined : Number(value.trim().replace(',', '.')));

export type VisitOfForm = { ok: true; visit: DryingVisitInput } | { ok: false; errors: Record<string, string>; message: string };

/**
 * The staff page's visit form as the visit the CRM's event carries, checked by the same schema. A
 * location row is recorded when it has a reading, a machine row when it has a model; each error is
 * given under the form's own field (`readings.2.value`). Times as the CRM's: not in the future, at most
 * 90 days before the enquiry.
 */
export function visitOfForm(form: FormData, reference: string, bounds: { now: number; receivedMs: number }): VisitOfForm {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const errors: Record<string, string> = {};
  const visitAt = londonInstant(text('visitAt'));
  if (!visitAt) errors.visitAt = staffVisitText.badTime;

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
      value: number(field('value')),
      goal: number(field('goal')),
    });
  }
  const machineRows: number[] = [];
  const equipment = [];
  for (let row = 0; row < MAX_ROWS && form.has(machineFieldName(row, 'model')); row += 1) {
    const field = (name: MachineField) => text(machineFieldName(row, name));
    if (field('model').trim() === '') continue;
    const on = londonInstant(field('on'));
    const off = field('off').trim() === '' ? null : londonInstant(field('off'));
    if (!on) errors[machineFieldName(row, 'on')] = staffVisitText.badTime;
    if (off === null && field('off').trim() !== '') errors[machineFieldName(row, 'off')] = staffVisitText.badTime;
    machineRows.push(row);
    equipment.push({
      kind: field('kind'),
      model: field('model'),
      watts: number(field('watts')),
      count: number(field('count')),
      on: on ?? '',
      off,
      kwh: number(field('kwh')) ?? null,
    });
  }
  if (readings.length + equipment.length === 0) return { ok: false, errors, message: staffVisitText.empty };
  if (Object.keys(errors).length > 0) return { ok: false, errors, message: staffVisitText.invalid };

  const parsed = parseDryingRecorded({
    type: 'claim.drying_recorded',
    timestamp: visitAt,
    data: { reference, visitAt, readings, equipment },
  });
  const problems = parsed.ok ? dryingTimeErrors(parsed.event.data, bounds) : parsed.errors;
  if (parsed.ok && problems.length === 0) return { ok: true, visit: parsed.event.data };
  return { ok: false, errors: formErrors(problems, readingRows, machineRows), message: staffVisitText.invalid };
}

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
        const name = field as MachineField;
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
