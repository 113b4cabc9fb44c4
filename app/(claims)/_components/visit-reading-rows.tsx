import { Field } from '@/components/contact/field';
import { staffVisitText } from '@/content/drying';
import { MATERIALS, SCALE_NAMES } from '@/lib/drying-terms';
import { readingFieldName, type KnownLocation } from '@/lib/drying-form';
import type { EnteredValues } from '@/app/(claims)/_components/visit-form-values';

type ReadingRowProps = {
  row: number;
  /** The location this row already has in the record, filled in; none for a blank row. */
  known: KnownLocation | undefined;
  entered: EnteredValues;
  /** The goal this row's typed reading is above, on a claim at `dried`. */
  wetGoal: number | undefined;
};

/** The reading fieldsets of the visit form: a row per location already recorded, then blank ones. */
export function VisitReadingRows({
  rows,
  locations,
  entered,
  wetGoal,
}: {
  rows: number;
  locations: readonly KnownLocation[];
  entered: EnteredValues;
  wetGoal: (row: number) => number | undefined;
}) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-lg font-bold text-brand-900">{staffVisitText.readings}</legend>
      {Array.from({ length: rows }, (_, row) => (
        <VisitReadingRow key={row} row={row} known={locations[row]} entered={entered} wetGoal={wetGoal(row)} />
      ))}
    </fieldset>
  );
}

/** One location's reading: where, the material, the meter's scale, the reading and its goal. */
function VisitReadingRow({ row, known, entered, wetGoal }: ReadingRowProps) {
  const text = staffVisitText;
  const { value, error } = entered;
  const name = (field: Parameters<typeof readingFieldName>[1]) => readingFieldName(row, field);
  const id = (field: string) => `visit-reading-${row}-${field}`;
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
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
      <MaterialAndScaleFields row={row} known={known} entered={entered} />
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
      {wetGoal !== undefined && !error(name('value')) ? (
        <p className="font-semibold text-red-700 sm:col-span-2" data-testid="wet-warning">
          {text.wetWarning(String(wetGoal))}
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
}

/** A reading row's two choices: what the wall or floor is made of, and the scale the meter reads on. */
function MaterialAndScaleFields({ row, known, entered }: Omit<ReadingRowProps, 'wetGoal'>) {
  const text = staffVisitText;
  const { value, error } = entered;
  const name = (field: Parameters<typeof readingFieldName>[1]) => readingFieldName(row, field);
  const id = (field: string) => `visit-reading-${row}-${field}`;
  return (
    <>
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
    </>
  );
}
