import 'server-only';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { Client } from '@libsql/client';
import { stringify, type Stringifier } from 'csv-stringify';
import { portfolioCsvName, portfolioDeadLinkText, withinStandardWords } from '@/content/portfolio';
import { stageWords } from '@/lib/claim-stages';
import type { PortfolioRow } from '@/lib/portfolio/portfolio-row';
import { wallClock } from '@/lib/zone-clock';
import { getDb } from '@/server/base/db';
import {
  openedPortfolio,
  portfolioFilterOf,
  portfolioFilterQuery,
  portfolioHeadings,
  standardColumns,
  type PortfolioDeps,
  type StandardColumn,
} from '@/server/portfolio/portfolio-page';

const ZONE = 'Europe/London';
const two = (value: number) => String(value).padStart(2, '0');

/** An instant as ISO 8601 on the London clock with its offset: "2026-03-30T09:15:00+01:00". */
export function londonIso(iso: string): string {
  const instant = Date.parse(iso);
  const clock = wallClock(instant, ZONE);
  const offsetMinutes = Math.round(
    (Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - Math.floor(instant / 1000) * 1000) / 60_000,
  );
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  return `${clock.date}T${two(clock.hour)}:${two(clock.minute)}:${two(clock.second)}${offset}`;
}

const time = (iso: string | null) => (iso === null ? '' : londonIso(iso));

/** One row as the CSV writes it, in the headings' order. */
export function csvRecord(row: PortfolioRow, standards: readonly StandardColumn[]): (string | number)[] {
  return [
    row.reference,
    row.claimNumber ?? '',
    row.postcode ?? '',
    row.damage ?? '',
    stageWords(row.stage),
    time(row.stageSince),
    time(row.instructedAt),
    time(row.firstContactAt),
    time(row.surveyAt),
    time(row.reportAt),
    time(row.dryingStartedAt),
    time(row.dryingEndedAt),
    time(row.completedAt),
    row.daysOpen,
    row.surveyBookedFor?.words ?? '',
    withinStandardWords(row.surveyBookedFor?.withinStandard ?? null),
    ...standards.map((standard) => row.standards[standard.key]?.words ?? ''),
  ];
}

/**
 * The CSV writer: UTF-8 with a byte-order mark (Excel then reads it as UTF-8), CRLF between records
 * (RFC 4180), every cell quoted (a spreadsheet that splits on `;` or a tab then reads `x;=1+1` as
 * one cell, not a formula in the next), and every cell a spreadsheet would run as a formula (starting
 * `=`, `+`, `-`, `@`, a tab or a carriage return) written with a leading `'` so it is read as text.
 */
export const portfolioCsvWriter = (standards: readonly StandardColumn[]): Stringifier =>
  stringify({
    bom: true,
    escape_formulas: true,
    record_delimiter: 'windows',
    quoted: true,
    quoted_empty: true,
    header: true,
    columns: portfolioHeadings(standards),
  });

/** Writes every batch into the writer as the reader takes it: never more than a batch and the writer's buffer in memory. */
async function feed(writer: Stringifier, batches: AsyncIterable<readonly PortfolioRow[]>, standards: readonly StandardColumn[]) {
  try {
    for await (const batch of batches) for (const row of batch) if (!writer.write(csvRecord(row, standards))) await once(writer, 'drain');
    writer.end();
  } catch (error) {
    console.error('[portfolio] Could not write a portfolio CSV:', error instanceof Error ? error.message : error);
    writer.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

const deadLink = () =>
  new Response(`${portfolioDeadLinkText.title}. ${portfolioDeadLinkText.body}\n`, {
    status: 403,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });

/** GET /portfolio/claims.csv: the page's rows with its filters, streamed; 403 with the dead link's words for a cookie that opens nothing. */
export async function portfolioCsvResponse(session: string | undefined, query: URLSearchParams, deps: PortfolioDeps): Promise<Response> {
  const db: Client = await (deps.db ?? getDb)();
  const now = (deps.now ?? Date.now)();
  const filter = portfolioFilterOf(query);
  const viewer = await openedPortfolio(db, session, now, { action: 'downloaded', detail: portfolioFilterQuery(filter) });
  if (!viewer) return deadLink();
  const standards = await standardColumns(db, viewer.organisationId);
  const writer = portfolioCsvWriter(standards);
  void feed(writer, deps.source.rows(db, viewer.organisationId, filter, now), standards);
  return new Response(Readable.toWeb(writer) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${portfolioCsvName(wallClock(now, ZONE).date)}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
