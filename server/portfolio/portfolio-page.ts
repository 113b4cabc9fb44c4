import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq, isNotNull } from 'drizzle-orm';
import { portfolioColumns, standardColumn } from '@/content/portfolio';
import { isClaimStage, type ClaimStatus } from '@/lib/claim-stages';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import type { PortfolioFilter, PortfolioPeriod, PortfolioRow } from '@/lib/portfolio/portfolio-row';
import { PORTFOLIO_CSV_PATH } from '@/lib/portfolio/portfolio-paths.mjs';
import { allowanceWords, STANDARD_KEYS, STANDARD_MEASURES, type StandardKey } from '@/lib/portfolio/standards';
import { getDb, orm } from '@/server/base/db';
import { enquiries } from '@/server/base/db-schema';
import { claimStatus } from '@/server/claims/claim-status';
import { portfolioStandards } from '@/server/portfolio/portfolio-rows';
import { logPortfolioAccess, markPortfolioUse, viewerOfSession, type SessionViewer } from '@/server/portfolio/portfolio-access';

/** Where the rows and the summary come from (server/portfolio/portfolio-rows.ts; a test gives its own). */
export type PortfolioSource = {
  rows: (db: Client, organisationId: number, filter: PortfolioFilter, now: number) => AsyncIterable<readonly PortfolioRow[]>;
  summary: (db: Client, organisationId: number, now: number) => Promise<readonly PortfolioPeriod[]>;
};

export type PortfolioDeps = { db?: () => Promise<Client>; now?: () => number; source: PortfolioSource };

/** One column of the standards: its key and its heading, "Standard: first contact within 2 working hours". */
export type StandardColumn = { key: StandardKey; heading: string };

/** What the page shows: the organisation's name, the filters, the summary, the standards' columns and every row. */
export type PortfolioView = {
  organisationName: string;
  filter: PortfolioFilter;
  csvPath: string;
  periods: readonly PortfolioPeriod[];
  standards: readonly StandardColumn[];
  rows: readonly PortfolioRow[];
};

type Query = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The filters a page's or a CSV's query asks for. Only `stage` (a stage's name) and `state` (open,
 * closed or all) are read; anything else in the address is ignored, so no edit of it reaches further
 * than the organisation the cookie opens. An unknown value reads as no filter.
 */
export function portfolioFilterOf(query: Query | URLSearchParams): PortfolioFilter {
  const read = (name: string) => (query instanceof URLSearchParams ? (query.get(name) ?? undefined) : first(query[name]));
  const stage = read('stage');
  const state = read('state');
  return {
    stage: isClaimStage(stage) ? stage : null,
    state: state === 'open' || state === 'closed' ? state : 'all',
  };
}

/** The query string of a filter, as the CSV link carries it and the access log keeps it: "stage=surveyed&state=open". */
export function portfolioFilterQuery(filter: PortfolioFilter): string {
  const query = new URLSearchParams();
  if (filter.stage) query.set('stage', filter.stage);
  query.set('state', filter.state);
  return query.toString();
}

/** The columns of the standards an organisation is held to (its own, and the company's once confirmed), in their fixed order. */
export async function standardColumns(db: Client, organisationId: number): Promise<StandardColumn[]> {
  const held = (await portfolioStandards(db, organisationId)) ?? {};
  return STANDARD_KEYS.flatMap((key) => {
    const allowance = held[key];
    return allowance ? [{ key, heading: standardColumn(STANDARD_MEASURES[key].heading, allowanceWords(allowance)) }] : [];
  });
}

/** The columns of the table and the CSV, in order: the fixed ones, then one per standard. */
export const portfolioHeadings = (standards: readonly StandardColumn[]) => [
  ...Object.values(portfolioColumns),
  ...standards.map((standard) => standard.heading),
];

/** The person a portfolio cookie opens the page for now, their use of it recorded (it lives 30 days from here). */
export async function openedPortfolio(
  db: Client,
  session: string | undefined,
  now: number,
  use: { action: 'viewed' | 'downloaded'; detail: string },
): Promise<SessionViewer | null> {
  const viewer = await viewerOfSession(db, session, now);
  if (!viewer) return null;
  await markPortfolioUse(db, viewer, now);
  await logPortfolioAccess(db, { organisationId: viewer.organisationId, personId: viewer.personId, ...use, now });
  return viewer;
}

/** The page by its cookie and query: everything it shows, or null (no cookie, or one that no longer works). */
export async function portfolioView(session: string | undefined, query: Query, deps: PortfolioDeps): Promise<PortfolioView | null> {
  const db = await (deps.db ?? getDb)();
  const now = (deps.now ?? Date.now)();
  const filter = portfolioFilterOf(query);
  const filterQuery = portfolioFilterQuery(filter);
  const viewer = await openedPortfolio(db, session, now, { action: 'viewed', detail: filterQuery });
  if (!viewer) return null;
  const [periods, standards] = await Promise.all([
    deps.source.summary(db, viewer.organisationId, now),
    standardColumns(db, viewer.organisationId),
  ]);
  const rows: PortfolioRow[] = [];
  for await (const batch of deps.source.rows(db, viewer.organisationId, filter, now)) rows.push(...batch);
  return { organisationName: viewer.organisationName, filter, csvPath: `${PORTFOLIO_CSV_PATH}?${filterQuery}`, periods, standards, rows };
}

/**
 * A claim's status page opened by the portfolio's cookie: only a claim of the cookie's own
 * organisation (an accepted one, not erased), shown as its instructing office sees it by the look-up.
 */
export async function portfolioClaimStatus(
  reference: string,
  session: string | undefined,
  deps: Omit<PortfolioDeps, 'source'> = {},
): Promise<{ status: ClaimStatus } | null> {
  const normalised = reference.toUpperCase();
  if (!session || !isEnquiryReference(normalised)) return null;
  const db = await (deps.db ?? getDb)();
  const now = (deps.now ?? Date.now)();
  const viewer = await viewerOfSession(db, session, now);
  if (!viewer) return null;
  const id = enquiryIdOf(normalised);
  const [claim] = await orm(db)
    .select({ id: enquiries.id })
    .from(enquiries)
    .where(
      and(
        eq(enquiries.id, id),
        eq(enquiries.organisationId, viewer.organisationId),
        eq(enquiries.disposition, 'accepted'),
        isNotNull(enquiries.linkKey),
      ),
    );
  if (!claim) return null;
  const status = await claimStatus(db, id, { now });
  if (!status) return null;
  await markPortfolioUse(db, viewer, now);
  await logPortfolioAccess(db, {
    organisationId: viewer.organisationId,
    personId: viewer.personId,
    action: 'viewed',
    detail: normalised,
    now,
  });
  return { status };
}
