import type { ReactNode } from 'react';
import { dryingText } from '@/content/drying';
import type { DryingLocation, DryingSummary } from '@/lib/drying';
import { LocationChart } from '@/app/(claims)/_components/drying-chart';
import { day, figure, ukFormats } from '@/app/(claims)/_components/drying-formats';

export type DryingSectionProps = {
  drying: DryingSummary;
  Heading: 'h2' | 'h3';
  LocationHeading: 'h3' | 'h4';
  /** The status page by link adds its documents' forms (app/(claims)/_components/drying-documents.tsx). */
  children?: ReactNode;
};

/**
 * The claim's drying record, once a reading exists: for each location its readings in words, a chart
 * of them against its goal line and a table of the same figures (for screen readers and printing);
 * how many days drying, and the machines in the home now with when each was switched on.
 */
export function DryingSection({ drying, Heading, LocationHeading, children }: DryingSectionProps) {
  const text = dryingText;
  return (
    <section aria-labelledby="drying-heading" className="space-y-4" data-testid="drying">
      <Heading id="drying-heading" className="text-lg font-bold text-brand-900">
        {text.heading}
      </Heading>
      <p className="text-slate-700">{text.intro}</p>
      <p className="font-semibold text-brand-900" data-testid="drying-days">
        {text.days(drying.days, drying.endedAt !== null)}
      </p>
      {drying.locations.map((location, index) => (
        <DryingLocationRecord key={`drying-location-${index}`} location={location} index={index} LocationHeading={LocationHeading} />
      ))}
      <LocationHeading className="font-semibold text-brand-900">{text.machinesHeading}</LocationHeading>
      <RunningMachines running={drying.running} />
      {children}
    </section>
  );
}

/** One location: its readings in words, whether it has met its goal, its chart and its table. */
function DryingLocationRecord({
  location,
  index,
  LocationHeading,
}: {
  location: DryingLocation;
  index: number;
  LocationHeading: DryingSectionProps['LocationHeading'];
}) {
  const text = dryingText;
  const wordsId = `drying-location-${index}`;
  return (
    <div className="space-y-2" data-testid="drying-location">
      <LocationHeading className="font-semibold text-brand-900">
        {location.location}, {location.material}
      </LocationHeading>
      <p id={wordsId} className="text-slate-800" data-testid="drying-words">
        {text.locationLine(
          location.location,
          location.material,
          location.readings.map((reading) => ({ value: figure(reading.value), date: day(reading.at) })),
          figure(location.goal),
        )}
      </p>
      <p className={`text-sm font-semibold ${location.met ? 'text-brand-900' : 'text-accent-600'}`}>
        {location.met ? text.met : text.above}
      </p>
      <LocationChart location={location} labelledBy={wordsId} />
      <ReadingsTable location={location} />
    </div>
  );
}

/** The figures of a location's chart as a table, for screen readers and printing. */
function ReadingsTable({ location }: { location: DryingLocation }) {
  const text = dryingText;
  const cell = 'border-t border-slate-200 px-3 py-1.5';
  return (
    <table
      className="w-full max-w-xl border-collapse rounded-md border border-slate-300 bg-white text-left text-sm"
      data-testid="drying-table"
    >
      <caption className="px-3 py-1.5 text-left text-slate-700">
        {text.table.caption(location.location, location.material)}. {text.scale[location.scale]}
      </caption>
      <thead>
        <tr>
          <th scope="col" className="px-3 py-1.5">
            {text.table.date}
          </th>
          <th scope="col" className="px-3 py-1.5">
            {text.table.reading}
          </th>
          <th scope="col" className="px-3 py-1.5">
            {text.table.goal}
          </th>
        </tr>
      </thead>
      <tbody>
        {location.readings.map((reading, readingIndex) => (
          <tr key={`${reading.at}-${readingIndex}`}>
            <th scope="row" className={`${cell} font-normal`}>
              <time dateTime={reading.at}>{day(reading.at)}</time>
            </th>
            <td className={cell}>{figure(reading.value)}</td>
            <td className={cell}>{figure(location.goal)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The machines in the home now, with when each was switched on. */
function RunningMachines({ running }: { running: DryingSummary['running'] }) {
  const text = dryingText;
  if (running.length === 0) return <p className="text-slate-700">{text.noMachines}</p>;
  return (
    <ul className="list-disc space-y-1 pl-5 text-slate-800" data-testid="drying-machines">
      {running.map((machine) => (
        <li key={`${machine.kind}-${machine.model}-${machine.on}`}>
          {text.machine(machine.count, machine.kind, machine.model)}, {text.since}{' '}
          <time dateTime={machine.on}>{ukFormats().dateTime.format(new Date(machine.on))}</time>
        </li>
      ))}
    </ul>
  );
}
