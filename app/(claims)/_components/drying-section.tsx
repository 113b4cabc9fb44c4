import type { ReactNode } from 'react';
import { dryingText } from '@/content/drying';
import type { DryingLocation, DryingSummary } from '@/lib/drying';

// Made on first use, like the status view's formats: loading a time zone's rules is a long task on a slow phone.
let formats: { day: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat; number: Intl.NumberFormat } | undefined;
const ukFormats = () =>
  (formats ??= {
    day: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' }),
    dateTime: new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/London',
    }),
    number: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }),
  });
const day = (iso: string) => ukFormats().day.format(new Date(iso));
const figure = (value: number) => ukFormats().number.format(value);

/** The chart's drawing area, in the SVG's own units; it scales to the width of the page. */
const CHART = { width: 320, height: 150, left: 34, right: 58, top: 14, bottom: 24 } as const;

/** A round top for the value axis a little above the highest reading or goal. */
function axisTop(highest: number): number {
  const raw = Math.max(1, highest * 1.15);
  const step = 10 ** Math.floor(Math.log10(raw));
  return Math.ceil(raw / step) * step;
}

/** Where each reading and the goal line sit: time across (first visit to last), value up. */
function chartOf(location: DryingLocation) {
  const times = location.readings.map((reading) => Date.parse(reading.at));
  const first = Math.min(...times);
  const span = Math.max(...times) - first;
  const top = axisTop(Math.max(location.goal, ...location.readings.map((reading) => reading.value)));
  const innerWidth = CHART.width - CHART.left - CHART.right;
  const innerHeight = CHART.height - CHART.top - CHART.bottom;
  const x = (time: number) => CHART.left + (span === 0 ? innerWidth / 2 : ((time - first) / span) * innerWidth);
  const y = (value: number) => CHART.top + innerHeight - (value / top) * innerHeight;
  return {
    top,
    points: location.readings.map((reading, index) => ({ x: x(times[index]!), y: y(reading.value), ...reading })),
    goalY: y(location.goal),
    baseY: y(0),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

/** One location's readings against its goal line, drawn on the server; its words name it for assistive technology. */
function LocationChart({ location, labelledBy }: { location: DryingLocation; labelledBy: string }) {
  const chart = chartOf(location);
  const right = CHART.width - CHART.right;
  return (
    <svg
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      role="img"
      aria-labelledby={labelledBy}
      className="h-auto w-full max-w-xl rounded-md border border-slate-300 bg-white"
      data-testid="drying-chart"
    >
      <line x1={CHART.left} x2={right} y1={chart.baseY} y2={chart.baseY} className="stroke-slate-400" strokeWidth="1" />
      <text x={CHART.left - 4} y={chart.baseY + 4} textAnchor="end" className="fill-slate-700 text-[10px]">
        0
      </text>
      <text x={CHART.left - 4} y={CHART.top + 4} textAnchor="end" className="fill-slate-700 text-[10px]">
        {figure(chart.top)}
      </text>
      <line
        x1={CHART.left}
        x2={right}
        y1={round(chart.goalY)}
        y2={round(chart.goalY)}
        className="stroke-accent-600"
        strokeWidth="1.5"
        strokeDasharray="5 3"
        data-testid="drying-goal-line"
      />
      <text x={right + 3} y={round(chart.goalY) + 3} className="fill-slate-900 text-[10px]">
        {dryingText.chartGoal(figure(location.goal))}
      </text>
      <polyline
        points={chart.points.map((point) => `${round(point.x)},${round(point.y)}`).join(' ')}
        fill="none"
        className="stroke-brand-700"
        strokeWidth="2"
      />
      {chart.points.map((point, index) => (
        <g key={`${point.at}-${index}`}>
          <circle cx={round(point.x)} cy={round(point.y)} r="3.5" className="fill-brand-700" />
          <text x={round(point.x)} y={round(point.y) - 7} textAnchor="middle" className="fill-slate-900 text-[10px] font-semibold">
            {figure(point.value)}
          </text>
        </g>
      ))}
      {[chart.points[0]!, chart.points.at(-1)!]
        .filter((point, index) => index === 0 || chart.points.length > 1)
        .map((point, index) => (
          <text
            key={`date-${index}`}
            x={round(point.x)}
            y={CHART.height - 8}
            textAnchor={chart.points.length === 1 ? 'middle' : index === 0 ? 'start' : 'end'}
            className="fill-slate-700 text-[10px]"
          >
            {day(point.at)}
          </text>
        ))}
    </svg>
  );
}

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
  const cell = 'border-t border-slate-200 px-3 py-1.5';
  return (
    <section aria-labelledby="drying-heading" className="space-y-4" data-testid="drying">
      <Heading id="drying-heading" className="text-lg font-bold text-brand-900">
        {text.heading}
      </Heading>
      <p className="text-slate-700">{text.intro}</p>
      <p className="font-semibold text-brand-900" data-testid="drying-days">
        {text.days(drying.days, drying.endedAt !== null)}
      </p>
      {drying.locations.map((location, index) => {
        const wordsId = `drying-location-${index}`;
        return (
          <div key={wordsId} className="space-y-2" data-testid="drying-location">
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
          </div>
        );
      })}
      <LocationHeading className="font-semibold text-brand-900">{text.machinesHeading}</LocationHeading>
      {drying.running.length === 0 ? (
        <p className="text-slate-700">{text.noMachines}</p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-slate-800" data-testid="drying-machines">
          {drying.running.map((machine) => (
            <li key={`${machine.kind}-${machine.model}-${machine.on}`}>
              {text.machine(machine.count, machine.kind, machine.model)}, {text.since}{' '}
              <time dateTime={machine.on}>{ukFormats().dateTime.format(new Date(machine.on))}</time>
            </li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}
