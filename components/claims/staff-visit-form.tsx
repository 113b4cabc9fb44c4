'use client';

import { useActionState } from 'react';
import { Field } from '@/components/contact/field';
import { staffVisitText } from '@/content/drying';
import { EQUIPMENT_KINDS, MATERIALS, SCALE_NAMES } from '@/lib/drying-terms';
import {
  BLANK_MACHINE_ROWS,
  BLANK_READING_ROWS,
  machineFieldName,
  readingFieldName,
  type KnownLocation,
  type KnownMachine,
  type StaffVisitState,
} from '@/lib/drying-form';

const IDLE: StaffVisitState = { kind: 'idle' };

/**
 * The company's record of one drying visit, on the staff page: the visit's time, a row per location
 * (those already recorded filled in, the new reading left to type) and a row per machine (those still
 * running filled in, their off time left to type). Posted like the stage's Save: once per form token,
 * before and without the page's script.
 */
export function StaffVisitForm({
  save,
  page,
  formToken,
  locations,
  machines,
}: {
  save: (previous: StaffVisitState, form: FormData) => Promise<StaffVisitState>;
  /** The page's own path: the form's action attribute before hydration. */
  page: string;
  formToken: string;
  locations: readonly KnownLocation[];
  /** Machines still running, with their switched-on time on the London clock (YYYY-MM-DDTHH:MM). */
  machines: readonly (KnownMachine & { onLocal: string })[];
}) {
  const [state, action, pending] = useActionState(save, IDLE, page);
  const refused = state.kind === 'refused' ? state : null;
  const text = staffVisitText;
  // After a refusal, what was entered; otherwise the rows the record already knows.
  const value = (name: string, fallback = '') => refused?.values[name] ?? fallback;
  const readingRows = locations.length + BLANK_READING_ROWS;
  const machineRows = machines.length + BLANK_MACHINE_ROWS;
  const error = (name: string) => refused?.errors[name];
  return (
    <form action={action} className="max-w-xl space-y-5" data-testid="staff-visit">
      <input type="hidden" name="formToken" value={state.kind === 'saved' ? state.formToken : formToken} />
      <p className="text-slate-700">{text.intro}</p>
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
          return (
            <fieldset key={row} className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
              <legend className="px-1 font-semibold text-brand-900">{text.machineRow(row + 1)}</legend>
              <Field id={id('kind')} label={text.machineLabels.kind} error={error(name('kind'))}>
                {(control) => (
                  <select
                    {...control}
                    name={name('kind')}
                    defaultValue={value(name('kind'), known?.kind ?? 'dehumidifier')}
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
              {input('model', known?.model ?? '')}
              {input('watts', known ? String(known.watts) : '')}
              {input('count', known ? String(known.count) : '1')}
              {input('on', known?.onLocal ?? '', 'datetime-local')}
              {input('off', '', 'datetime-local')}
              {input('kwh', '')}
            </fieldset>
          );
        })}
      </fieldset>
      <button type="submit" className="btn-primary" disabled={pending}>
        {text.submit}
      </button>
      <div role={refused ? 'alert' : 'status'} className={refused ? 'font-semibold text-red-700' : 'font-semibold text-green-800'}>
        {state.kind === 'idle' ? null : state.message}
      </div>
    </form>
  );
}
