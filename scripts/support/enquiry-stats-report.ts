import type { EnquiryStats } from '@/server/reports/stats';
import { oneLine, tableLines } from './listing-cli';

const percent = (count: number, total: number) => (total === 0 ? '-' : `${Math.round((100 * count) / total)}%`);

/** `npm run enquiries -- --stats` as plain text: six small tables. */
export function statsReport(stats: EnquiryStats, since?: string): string {
  const total = stats.counted;
  const heading = `${total} accepted enquir${total === 1 ? 'y' : 'ies'}${since ? ` since ${since}` : ''}; ${stats.leftOut} spam or suspect left out.`;
  if (total === 0) return heading;
  const section = (title: string, header: string[], rows: string[][]) => [
    '',
    title,
    ...tableLines(header, rows, 60).map((line) => `  ${line}`),
  ];
  return [
    heading,
    ...section(
      'By month',
      ['month', 'enquiries'],
      stats.byMonth.map((row) => [row.key, String(row.count)]),
    ),
    ...section(
      'By landing page and source',
      ['landing page', 'source', 'enquiries', 'share'],
      stats.byLandingAndSource.map((row) => [
        oneLine(row.landingPage, 60),
        oneLine(row.source, 60),
        String(row.count),
        percent(row.count, total),
      ]),
    ),
    ...section(
      'By type of damage',
      ['type of damage', 'enquiries', 'share'],
      stats.byDamageType.map((row) => [row.key, String(row.count), percent(row.count, total)]),
    ),
    ...section(
      'Claims and the rest',
      ['kind', 'enquiries', 'share'],
      [
        ['insurance claims', String(stats.claims.claims), percent(stats.claims.claims, total)],
        ['other enquiries', String(stats.claims.other), percent(stats.claims.other, total)],
      ],
    ),
    ...section(
      'Urgency',
      ['kind', 'enquiries', 'share'],
      [
        ['urgent', String(stats.urgent), percent(stats.urgent, total)],
        ['not urgent', String(total - stats.urgent), percent(total - stats.urgent, total)],
      ],
    ),
    ...section(
      'Instructions',
      ['from', 'enquiries', 'share'],
      [['insurers and loss adjusters', String(stats.instructions), percent(stats.instructions, total)]],
    ),
  ].join('\n');
}
