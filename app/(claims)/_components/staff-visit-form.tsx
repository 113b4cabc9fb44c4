'use client';

import { useActionState, useState, type FormEvent } from 'react';
import { Field } from '@/components/contact/field';
import { staffVisitText } from '@/content/drying';
import { EQUIPMENT_KINDS, MATERIALS, SCALE_NAMES } from '@/lib/drying-terms';
import {
  BLANK_MACHINE_ROWS,
  BLANK_READING_ROWS,
  CONFIRM_WET_FIELD,
  machineFieldName,
  parseDecimal,
  readingFieldName,
  type KnownLocation,
  type KnownMachine,
  type StaffVisitState,
} from '@/lib/drying-form';

const IDLE: StaffVisitState = { kind: 'idle' };

type WetRow = { row: number; goal: number };

/** The reading rows whose typed reading is above its typed goal. */
function wetRowsOf(form: HTMLFormElement, rows: number): WetRow[] {
  const data = new FormData(form);
  const number = (name: string) => parseDecimal(String(data.get(name) ?? ''));
  return Array.from({ length: rows }, (_, row) => row).flatMap((row) => {
    const value = number(readingFieldName(row, 'value'));
    const goal = number(readingFieldName(row, 'goal'));
    return typeof value === 'number' && typeof goal === 'number' && value > goal ? [{ row, goal }] : [];
  });
}

/**
 * The company's record of one drying visit, on the staff page: the visit's time, a row per location
 * (those already recorded filled in, the new reading left to type), a row per machine still running
 * (named by its stored id: only a new count, an off time or a meter reading changes it) and rows for
 * new machines. On a claim at `dried`, a reading typed above its goal is flagged beside it and needs
 * the confirming box ticked (the server asks for it too, without the script). Posted like the stage's
 * Save: once per form token, before and without the page's script.
 */
export function StaffVisitForm({
  save,
  page,
  formToken,
  locations,
  machines,
  dried,
}: {
  save: (previous: StaffVisitState, form: FormData) => Promise<StaffVisitState>;
  /** The page's own path: the form's action attribute before hydration. */
  page: string;
  formToken: string;
  locations: readonly KnownLocation[];
  /** Machines still running, with their switched-on time in words, to the second and with its zone. */
  machines: readonly (KnownMachine & { onWords: string })[];
  /** The claim is at `dried`: a reading above its goal moves it back to drying, once confirmed. */
  dried: boolean;
}) {
  const [state, action, pending] = useActionState(save, IDLE, page);
  const refused = state.kind === 'refused' ? state : null;
  const text = staffVisitText;
  // After a refusal, what was entered; otherwise the rows the record already knows.
  const value = (name: string, fallback = '') => refused?.values[name] ?? fallback;
  const readingRows = locations.length + BLANK_READING_ROWS;
  const machineRows = machines.length + BLANK_MACHINE_ROWS;
  const error = (name: string) => refused?.errors[name];
  const [wetRows, setWetRows] = useState<readonly WetRow[]>([]);
  const checkWet = (event: FormEvent<HTMLFormElement>) => {
    if (!dried) return;
    const rows = wetRowsOf(event.currentTarget, readingRows);
    if (JSON.stringify(rows) !== JSON.stringify(wetRows)) setWetRows(rows);
  };
  const wetGoal = (row: number) => wetRows.find((wet) => wet.row === row)?.goal;
  const askConfirm = (dried && wetRows.length > 0) || error(CONFIRM_WET_FIELD) !== undefined;
  const token = state.kind === 'saved' ? state.formToken : refused?.values.formToken || formToken;
  return (
    <form action={action} onInput={checkWet} className="max-w-xl space-y-5" data-testid="staff-visit">
      <input type="hidden" name="formToken" value={token} />
      <p className="text-slate-700">{text.intro}</p>
      <p className="text-slate-700">{text.numberHint}</p>
      <Field id="visit-at" label={text.visitAt} required error={error('visitAt')}>
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            name="visitAt"
            defaultValue={value('visitAt')}
            key={`at-${value('visitAt')}`}
            required
          />
        )}
      </Field>
      <fieldset className="space-y-4">
        <legend className="text-lg font-bold text-brand-900">{text.readings}</legend>
        {Array.from({ length: readingRows }, (_, row) => {
          const known = locations[row];
          const name = (field: Parameters<typeof readingFieldName>[1]) => readingFieldName(row, field);
          const id = (field: string) => `visit-reading-${row}-${field}`;
          return (
            <fieldset key={row} className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
              <legend className="px-1 font-semibold text-brand-900">{text.locationRow(row + 1)}</legend>
              <Field id={id('location')} label={text.labels.location} error={error(name('location'))}>
                {(control) => (
                  <input
                    {...control}
                    name={name('location')}
                    defaultValue={value(name('location'), known?.location)}
                    key={`${name('location')}-${value(name('location'), known?.location)}`}
                  />
                )}
              </Field>
              <Field id={id('material')} label={text.labels.material} error={error(name('material'))}>
                {(control) => (
                  <select
                    {...control}
                    name={name('material')}
                    defaultValue={value(name('material'), known?.material ?? 'plaster')}
                    key={`${name('material')}-${value(name('material'))}`}
                  >
                    {MATERIALS.map((material) => (
                      <option key={material} value={material}>
                        {material}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field id={id('scale')} label={text.labels.scale} error={error(name('scale'))}>
                {(control) => (
                  <select
                    {...control}
                    name={name('scale')}
                    defaultValue={value(name('scale'), known?.scale ?? 'wme')}
                    key={`${name('scale')}-${value(name('scale'))}`}
                  >
                    {SCALE_NAMES.map((scale) => (
                      <option key={scale} value={scale}>
                        {text.scales[scale]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field id={id('value')} label={text.labels.value} error={error(name('value'))}>
                {(control) => (
                  <input
                    {...control}
                    name={name('value')}
                    inputMode="decimal"
                    defaultValue={value(name('value'))}
                    key={`${name('value')}-${value(name('value'))}`}
                  />
                )}
              </Field>
              {wetGoal(row) !== undefined && !error(name('value')) ? (
                <p className="font-semibold text-red-700 sm:col-span-2" data-testid="wet-warning">
                  {text.wetWarning(String(wetGoal(row)))}
                </p>
              ) : null}
              <Field id={id('goal')} label={text.labels.goal} error={error(name('goal'))}>
                {(control) => (
                  <input
                    {...control}
                    name={name('goal')}
                    inputMode="decimal"
                    defaultValue={value(name('goal'), known ? String(known.goal) : '')}
                    key={`${name('goal')}-${value(name('goal'))}`}
                  />
                )}
              </Field>
            </fieldset>
          );
        })}
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="text-lg font-bold text-brand-900">{text.machines}</legend>
        {Array.from({ length: machineRows }, (_, row) => {
          const known = machines[row];
          const name = (field: Parameters<typeof machineFieldName>[1]) => machineFieldName(row, field);
          const id = (field: string) => `visit-machine-${row}-${field}`;
          const input = (field: 'model' | 'watts' | 'count' | 'on' | 'off' | 'kwh', fallback: string, type = 'text') => (
            <Field id={id(field)} label={text.machineLabels[field]} error={error(name(field))}>
              {(control) => (
                <input
                  {...control}
                  type={type}
                  name={name(field)}
                  inputMode={type === 'text' && field !== 'model' ? 'decimal' : undefined}
                  defaultValue={value(name(field), fallback)}
                  key={`${name(field)}-${value(name(field), fallback)}`}
                />
              )}
            </Field>
          );
          if (known)
            return (
              <fieldset key={row} className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
                <legend className="px-1 font-semibold text-brand-900">{text.machineRow(row + 1)}</legend>
                <input type="hidden" name={name('id')} value={String(known.id)} />
                <p className="text-slate-700 sm:col-span-2">{text.runningMachine(known.model, known.kind, known.onWords)}</p>
                {input('count', String(known.count))}
                {input('off', '', 'datetime-local')}
                {input('kwh', '')}
              </fieldset>
            );
          return (
            <fieldset key={row} className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
              <legend className="px-1 font-semibold text-brand-900">{text.machineRow(row + 1)}</legend>
              <Field id={id('kind')} label={text.machineLabels.kind} error={error(name('kind'))}>
                {(control) => (
                  <select
                    {...control}
                    name={name('kind')}
                    defaultValue={value(name('kind'), 'dehumidifier')}
                    key={`${name('kind')}-${value(name('kind'))}`}
                  >
                    {EQUIPMENT_KINDS.map((kind) => (
                      <option key={kind} value={kind}>
                        {kind}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {input('model', '')}
              {input('watts', '')}
              {input('count', '1')}
              {input('on', '', 'datetime-local')}
              {input('off', '', 'datetime-local')}
              {input('kwh', '')}
            </fieldset>
          );
        })}
      </fieldset>
      {askConfirm ? (
        <div>
          <label className="flex items-center gap-2 font-semibold text-brand-900">
            <input
              type="checkbox"
              name={CONFIRM_WET_FIELD}
              required
              aria-invalid={error(CONFIRM_WET_FIELD) ? true : undefined}
              aria-describedby={error(CONFIRM_WET_FIELD) ? 'visit-confirm-wet-error' : undefined}
            />
            {text.confirmWet}
          </label>
          {error(CONFIRM_WET_FIELD) ? (
            <p id="visit-confirm-wet-error" className="mt-1 text-sm font-semibold text-red-700">
              {error(CONFIRM_WET_FIELD)}
            </p>
          ) : null}
        </div>
      ) : null}
      <button type="submit" className="btn-primary" disabled={pending}>
        {text.submit}
      </button>
      <div role={refused ? 'alert' : 'status'} className={refused ? 'font-semibold text-red-700' : 'font-semibold text-green-800'}>
        {state.kind === 'idle' ? null : state.message}
      </div>
    </form>
  );
}
