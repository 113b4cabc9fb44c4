import Link from 'next/link';
import { portfolioColumns, portfolioPage, withinStandardWords } from '@/content/portfolio';
import { claimStatusPath } from '@/lib/claim-paths.mjs';
import { stageWords } from '@/lib/claim-stages';
import type { PortfolioRow } from '@/lib/portfolio/portfolio-row';
import type { StandardColumn } from '@/server/portfolio/portfolio-page';

const text = portfolioPage.table;
const LONDON = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});

function When({ at }: { at: string | null }) {
  return at === null ? text.notYet : <time dateTime={at}>{LONDON.format(new Date(at))}</time>;
}

const TIMES = ['instructedAt', 'firstContactAt', 'surveyAt', 'reportAt', 'dryingStartedAt', 'dryingEndedAt', 'completedAt'] as const;
const cell = 'border-t border-slate-200 px-3 py-2 align-top';

function ClaimRow({ row, standards }: { row: PortfolioRow; standards: readonly StandardColumn[] }) {
  return (
    <tr data-testid="portfolio-row">
      <th scope="row" className={`${cell} font-semibold whitespace-nowrap`}>
        <Link href={claimStatusPath(row.reference)} prefetch={false} className="text-brand-700 underline">
          {row.reference}
        </Link>
      </th>
      <td className={cell}>{row.claimNumber}</td>
      <td className={`${cell} whitespace-nowrap`}>{row.postcode}</td>
      <td className={cell}>{row.damage}</td>
      <td className={cell}>{stageWords(row.stage)}</td>
      <td className={cell}>
        <When at={row.stageSince} />
      </td>
      {TIMES.map((name) => (
        <td key={name} className={cell}>
          <When at={row[name]} />
        </td>
      ))}
      <td className={`${cell} text-right`}>{row.daysOpen}</td>
      <td className={cell} data-testid="survey-booked-for">
        {row.surveyBookedFor?.words ?? ''}
      </td>
      <td className={cell}>{withinStandardWords(row.surveyBookedFor?.withinStandard ?? null)}</td>
      {standards.map((standard) => (
        <td key={standard.key} className={cell} data-testid={`standing-${standard.key}`}>
          {row.standards[standard.key]?.words ?? ''}
        </td>
      ))}
    </tr>
  );
}

/**
 * Every claim the filters let through, newest first. The table is wider than a phone: its frame
 * scrolls sideways and can take the keyboard's focus, so it can be scrolled without a pointer.
 */
export function PortfolioTable({ rows, standards }: { rows: readonly PortfolioRow[]; standards: readonly StandardColumn[] }) {
  if (rows.length === 0)
    return (
      <p className="text-lg text-slate-700" data-testid="portfolio-empty">
        {text.empty}
      </p>
    );
  return (
    <div role="region" aria-label={text.scrollLabel} tabIndex={0} className="overflow-x-auto rounded-md border border-slate-300 bg-white">
      <table className="min-w-max border-collapse text-left text-sm" data-testid="portfolio-table">
        <caption className="px-3 py-2 text-left font-semibold text-slate-700">{text.caption(rows.length)}</caption>
        <thead>
          <tr>
            {Object.values(portfolioColumns).map((heading) => (
              <th key={heading} scope="col" className="px-3 py-2">
                {heading}
              </th>
            ))}
            {standards.map((standard) => (
              <th key={standard.key} scope="col" className="px-3 py-2">
                {standard.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <ClaimRow key={row.reference} row={row} standards={standards} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
