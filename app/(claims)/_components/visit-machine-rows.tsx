import { Field } from '@/components/contact/field';
import { staffVisitText } from '@/content/drying';
import { EQUIPMENT_KINDS } from '@/lib/drying-terms';
import { machineFieldName, type KnownMachine } from '@/lib/drying-form';
import type { EnteredValues } from '@/app/(claims)/_components/visit-form-values';

/** A machine still running, with its switched-on time in words, to the second and with its zone. */
export type RunningMachine = KnownMachine & { onWords: string };

type TypedField = 'model' | 'watts' | 'count' | 'on' | 'off' | 'kwh';

/** The machine fieldsets of the visit form: a row per machine still running, then blank ones for new machines. */
export function VisitMachineRows({
  rows,
  machines,
  entered,
}: {
  rows: number;
  machines: readonly RunningMachine[];
  entered: EnteredValues;
}) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-lg font-bold text-brand-900">{staffVisitText.machines}</legend>
      {Array.from({ length: rows }, (_, row) => {
        const known = machines[row];
        return known ? (
          <RunningMachineRow key={row} row={row} known={known} entered={entered} />
        ) : (
          <NewMachineRow key={row} row={row} entered={entered} />
        );
      })}
    </fieldset>
  );
}

/** A running machine, named by its stored id: only a new count, an off time or a meter reading changes it. */
function RunningMachineRow({ row, known, entered }: { row: number; known: RunningMachine; entered: EnteredValues }) {
  const text = staffVisitText;
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
      <legend className="px-1 font-semibold text-brand-900">{text.machineRow(row + 1)}</legend>
      <input type="hidden" name={machineFieldName(row, 'id')} value={String(known.id)} />
      <p className="text-slate-700 sm:col-span-2">{text.runningMachine(known.model, known.kind, known.onWords)}</p>
      <MachineInput row={row} field="count" fallback={String(known.count)} entered={entered} />
      <MachineInput row={row} field="off" fallback="" type="datetime-local" entered={entered} />
      <MachineInput row={row} field="kwh" fallback="" entered={entered} />
    </fieldset>
  );
}

/** A machine put in on this visit: its kind, model, watts, how many, and when it went on (and off). */
function NewMachineRow({ row, entered }: { row: number; entered: EnteredValues }) {
  const text = staffVisitText;
  const { value, error } = entered;
  const name = machineFieldName(row, 'kind');
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
      <legend className="px-1 font-semibold text-brand-900">{text.machineRow(row + 1)}</legend>
      <Field id={`visit-machine-${row}-kind`} label={text.machineLabels.kind} error={error(name)}>
        {(control) => (
          <select {...control} name={name} defaultValue={value(name, 'dehumidifier')} key={`${name}-${value(name)}`}>
            {EQUIPMENT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        )}
      </Field>
      <MachineInput row={row} field="model" fallback="" entered={entered} />
      <MachineInput row={row} field="watts" fallback="" entered={entered} />
      <MachineInput row={row} field="count" fallback="1" entered={entered} />
      <MachineInput row={row} field="on" fallback="" type="datetime-local" entered={entered} />
      <MachineInput row={row} field="off" fallback="" type="datetime-local" entered={entered} />
      <MachineInput row={row} field="kwh" fallback="" entered={entered} />
    </fieldset>
  );
}

/** One typed field of a machine row; figures get the decimal keypad. */
function MachineInput({
  row,
  field,
  fallback,
  type = 'text',
  entered,
}: {
  row: number;
  field: TypedField;
  fallback: string;
  type?: string;
  entered: EnteredValues;
}) {
  const { value, error } = entered;
  const name = machineFieldName(row, field);
  return (
    <Field id={`visit-machine-${row}-${field}`} label={staffVisitText.machineLabels[field]} error={error(name)}>
      {(control) => (
        <input
          {...control}
          type={type}
          name={name}
          inputMode={type === 'text' && field !== 'model' ? 'decimal' : undefined}
          defaultValue={value(name, fallback)}
          key={`${name}-${value(name, fallback)}`}
        />
      )}
    </Field>
  );
}
