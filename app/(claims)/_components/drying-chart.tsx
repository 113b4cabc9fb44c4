import { dryingText } from '@/content/drying';
import type { DryingLocation } from '@/lib/drying';
import { day, figure } from '@/app/(claims)/_components/drying-formats';

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
export function LocationChart({ location, labelledBy }: { location: DryingLocation; labelledBy: string }) {
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
