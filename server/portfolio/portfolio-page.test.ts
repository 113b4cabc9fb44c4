// The portfolio's page, CSV and link against a real database: who they open for, which organisation's
// claims, what they record, and what a dead link answers. (What /portfolio does with a link the browser
// brings, and signing out: portfolio-entry.test.ts.)
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { portfolioDeadLinkText } from '@/content/portfolio';
import type { PortfolioFilter, PortfolioPeriod, PortfolioRow } from '@/lib/portfolio/portfolio-row';
import { orm } from '@/server/base/db';
import { enquiries, organisationPeople, organisations, portfolioAccessLog, portfolioSessions } from '@/server/base/db-schema';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { linkStanding, newPortfolioLink, openPortfolioLink } from '@/server/portfolio/portfolio-access';
import { portfolioCsvResponse } from '@/server/portfolio/portfolio-csv';
import { exchangePortfolioLink, PORTFOLIO_LINK_COOKIE } from '@/server/portfolio/portfolio-exchange';
import {
  portfolioClaimStatus,
  portfolioFilterOf,
  portfolioFilterQuery,
  portfolioView,
  type PortfolioSource,
} from '@/server/portfolio/portfolio-page';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { newEnquiry } from '@/tests/support/stored-enquiry';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const DAY_MS = 86_400_000;
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

/** An organisation with an office link, opened at T0: its session's cookie value. */
async function organisation(name: string, standards: string | null = null) {
  const [row] = await orm(db)
    .insert(organisations)
    .values({ name, standards, createdMs: T0, updatedMs: T0 })
    .returning({ id: organisations.id });
  const [person] = await orm(db)
    .insert(organisationPeople)
    .values({ organisationId: row!.id, email: null, createdMs: T0 })
    .returning({ id: organisationPeople.id });
  const opening = await openPortfolioLink(db, await newPortfolioLink(db, person!.id, T0), T0, 'Firefox');
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  return { organisationId: row!.id, personId: person!.id, session: opening.session };
}

const claimRow = (reference: string): PortfolioRow => ({
  reference,
  claimNumber: 'EM-1',
  postcode: 'G65 0AA',
  damage: 'Water damage',
  stage: 'received',
  stageSince: '2026-03-01T09:00:00.000Z',
  instructedAt: '2026-03-01T09:00:00.000Z',
  firstContactAt: null,
  surveyAt: null,
  reportAt: null,
  dryingStartedAt: null,
  dryingEndedAt: null,
  completedAt: null,
  daysOpen: 1,
  surveyBookedFor: null,
  open: true,
  standards: {},
});

/** A source that answers each organisation with its own rows, and remembers what it was asked. */
function fakeSource(rowsOf: Record<number, PortfolioRow[]>) {
  const asked: { organisationId: number; filter: PortfolioFilter }[] = [];
  const source: PortfolioSource = {
    async *rows(_db, organisationId, filter) {
      asked.push({ organisationId, filter });
      const rows = rowsOf[organisationId] ?? [];
      for (let at = 0; at < rows.length; at += 2) yield rows.slice(at, at + 2);
    },
    summary: async (_db, organisationId) =>
      [30, 90].map((days): PortfolioPeriod => ({
        days: days as 30 | 90,
        instructed: rowsOf[organisationId]?.length ?? 0,
        open: 0,
        medianToContactHours: null,
        medianToSurveyHours: null,
        standardsMet: {},
      })),
  };
  return { source, asked };
}

const logOf = () => orm(db).select().from(portfolioAccessLog).orderBy(portfolioAccessLog.id);
const deps = (source: PortfolioSource, now = T0) => ({ db: async () => db, now: () => now, source });

describe('the filters', () => {
  it('reads only a known stage and open, closed or all; anything else is no filter', () => {
    expect(portfolioFilterOf({ stage: 'surveyed', state: 'open' })).toEqual({ stage: 'surveyed', state: 'open' });
    expect(portfolioFilterOf({})).toEqual({ stage: null, state: 'all' });
    expect(portfolioFilterOf({ stage: 'everything', state: 'any', organisation: '2' })).toEqual({ stage: null, state: 'all' });
    expect(portfolioFilterOf({ stage: ['drying', 'completed'], state: ['closed'] })).toEqual({ stage: 'drying', state: 'closed' });
    expect(portfolioFilterOf(new URLSearchParams('state=closed&stage=completed&org=1'))).toEqual({ stage: 'completed', state: 'closed' });
  });

  it('writes a filter back as the query the CSV link carries', () => {
    expect(portfolioFilterQuery({ stage: 'surveyed', state: 'open' })).toBe('stage=surveyed&state=open');
    expect(portfolioFilterQuery({ stage: null, state: 'all' })).toBe('state=all');
  });
});

describe('the page', () => {
  it('opens with the cookie for its own organisation only, records the view, and moves the session’s life on', async () => {
    const first = await organisation('Example Mutual', '{"contact":{"workingHours":2}}');
    const second = await organisation('Other Adjusters');
    const { source, asked } = fakeSource({
      [first.organisationId]: [claimRow('HC-AAA-AAA')],
      [second.organisationId]: [claimRow('HC-BBB-BBB')],
    });
    const view = await portfolioView(
      first.session,
      { stage: 'received', state: 'open', organisation: String(second.organisationId) },
      deps(source),
    );
    expect(view?.organisationName).toBe('Example Mutual');
    expect(view?.rows.map((row) => row.reference)).toEqual(['HC-AAA-AAA']);
    expect(asked).toEqual([{ organisationId: first.organisationId, filter: { stage: 'received', state: 'open' } }]);
    expect(view?.csvPath).toBe('/portfolio/claims.csv?stage=received&state=open');
    // Its own standard for first contact; the company's are not held while they are placeholders.
    expect(business.forInsurers.placeholder).toBe(true);
    expect(view?.standards.map((standard) => standard.heading)).toEqual(['Standard: first contact within 2 working hours']);
    expect(
      (await logOf()).map(({ organisationId, personId, action, detail, atMs }) => ({ organisationId, personId, action, detail, atMs })),
    ).toEqual([
      { organisationId: first.organisationId, personId: first.personId, action: 'viewed', detail: 'stage=received&state=open', atMs: T0 },
    ]);
    const [person] = await orm(db).select().from(organisationPeople).where(eq(organisationPeople.id, first.personId));
    expect(person?.lastUsedMs).toBe(T0);

    // Viewed 20 days on, the session works 30 days from then.
    await portfolioView(first.session, {}, deps(source, T0 + 20 * DAY_MS));
    const [session] = await orm(db).select().from(portfolioSessions).where(eq(portfolioSessions.personId, first.personId));
    expect(session?.lastUsedMs).toBe(T0 + 20 * DAY_MS);
    expect(await portfolioView(first.session, {}, deps(source, T0 + 49 * DAY_MS))).not.toBeNull();
  });

  it('is the dead link with no cookie, a forged one, a link’s token, a revoked person, a suspended organisation, or past 30 days unused', async () => {
    const { source, asked } = fakeSource({});
    const one = await organisation('Example Mutual');
    const link = await newPortfolioLink(db, one.personId, T0);
    expect(await portfolioView(undefined, {}, deps(source))).toBeNull();
    expect(
      await portfolioView(
        one.session.replace(/.$/, (last: string) => (last === 'A' ? 'B' : 'A')),
        {},
        deps(source),
      ),
    ).toBeNull();
    expect(await portfolioView(link, {}, deps(source))).toBeNull();
    expect(await portfolioView(one.session, {}, deps(source, T0 + 30 * DAY_MS))).toBeNull();
    expect(await portfolioView(one.session, {}, deps(source))).not.toBeNull();
    await orm(db).update(organisations).set({ suspendedMs: T0 }).where(eq(organisations.id, one.organisationId));
    expect(await portfolioView(one.session, {}, deps(source))).toBeNull();
    const two = await organisation('Other Adjusters');
    await orm(db).update(organisationPeople).set({ revokedMs: T0 }).where(eq(organisationPeople.id, two.personId));
    expect(await portfolioView(two.session, {}, deps(source))).toBeNull();
    expect(asked).toHaveLength(1);
    // Nothing was recorded for the ones that opened nothing.
    expect((await logOf()).map((entry) => [entry.personId, entry.action])).toEqual([[one.personId, 'viewed']]);
  });
});

describe('a claim’s status page by the portfolio’s cookie', () => {
  it('opens a claim of the cookie’s organisation, and no other', async () => {
    const first = await organisation('Example Mutual');
    const second = await organisation('Other Adjusters');
    const own = await storeEnquiry(db, newEnquiry({ claimRole: 'insurer' }), T0);
    const others = await storeEnquiry(db, newEnquiry({ claimRole: 'insurer', subject: 'Another' }), T0);
    const homeowners = await storeEnquiry(db, newEnquiry({ subject: 'Mine' }), T0);
    await orm(db).update(enquiries).set({ organisationId: first.organisationId }).where(eq(enquiries.id, own.id));
    await orm(db).update(enquiries).set({ organisationId: second.organisationId }).where(eq(enquiries.id, others.id));
    const at = { db: async () => db, now: () => T0 + 60_000 };
    expect((await portfolioClaimStatus(own.reference!, first.session, at))?.status.reference).toBe(own.reference);
    expect((await portfolioClaimStatus(own.reference!.toLowerCase(), first.session, at))?.status.reference).toBe(own.reference);
    expect(await portfolioClaimStatus(others.reference!, first.session, at)).toBeNull();
    expect(await portfolioClaimStatus(homeowners.reference!, first.session, at)).toBeNull();
    expect(await portfolioClaimStatus(own.reference!, second.session, at)).toBeNull();
    expect(await portfolioClaimStatus(own.reference!, undefined, at)).toBeNull();
    expect((await logOf()).map((entry) => [entry.personId, entry.action, entry.detail])).toEqual([
      [first.personId, 'viewed', own.reference],
      [first.personId, 'viewed', own.reference],
    ]);
  });
});

describe('the link', () => {
  it('only parks its token in an HttpOnly cookie for the page and moves on to /portfolio, using nothing', async () => {
    const one = await organisation('Example Mutual');
    const token = await newPortfolioLink(db, one.personId, T0);
    const before = await orm(db).select().from(portfolioSessions);
    const answer = exchangePortfolioLink(token, { https: true });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('set-cookie')).toBe(
      `${PORTFOLIO_LINK_COOKIE}=${token}; Path=/portfolio; Max-Age=86400; HttpOnly; SameSite=Lax; Secure`,
    );
    const html = await answer.text();
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/portfolio">');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).not.toContain(token);
    // A mail scanner opening it uses nothing up: still fresh, no session, nothing logged.
    expect(await linkStanding(db, token, T0)).toMatchObject({ kind: 'fresh' });
    expect(await orm(db).select().from(portfolioSessions)).toEqual(before);
    expect(await logOf()).toEqual([]);
  });

  it('answers any well-formed token the same (nothing is looked up), is not Secure on plain http, and 404 to a malformed one', async () => {
    const forged = exchangePortfolioLink('A'.repeat(43), { https: true });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('set-cookie')).toBe(
      `${PORTFOLIO_LINK_COOKIE}=${'A'.repeat(43)}; Path=/portfolio; Max-Age=86400; HttpOnly; SameSite=Lax; Secure`,
    );
    const plain = exchangePortfolioLink('A'.repeat(43), { https: false });
    expect(plain.headers.get('set-cookie')).not.toContain('Secure');
    // On a loopback host, whatever the site's scheme, the cookie is not Secure either.
    expect(exchangePortfolioLink('A'.repeat(43), { host: '127.0.0.1:3000' }).headers.get('set-cookie')).not.toContain('Secure');
    for (const malformed of ['not-a-token', 'A'.repeat(42), `${'A'.repeat(43)};x`, '1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const answer = exchangePortfolioLink(malformed, { https: true });
      expect([malformed, answer.status, answer.headers.get('set-cookie')]).toEqual([malformed, 404, null]);
    }
    expect(await logOf()).toEqual([]);
  });
});

describe('the CSV', () => {
  it('streams its own organisation’s rows with the filters, records the download, and is no-store', async () => {
    const first = await organisation('Example Mutual');
    const second = await organisation('Other Adjusters');
    const rows = ['HC-AAA-AAA', 'HC-AAA-AAB', 'HC-AAA-AAC'].map(claimRow);
    const { source, asked } = fakeSource({ [first.organisationId]: rows, [second.organisationId]: [claimRow('HC-BBB-BBB')] });
    const answer = await portfolioCsvResponse(first.session, new URLSearchParams('state=closed&organisation=2'), deps(source));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="claims-2026-03-02.csv"');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const body = Buffer.from(await answer.arrayBuffer());
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').trim().split('\r\n');
    // Every cell is quoted (portfolio-csv.ts).
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['"HC-AAA-AAA"', '"HC-AAA-AAB"', '"HC-AAA-AAC"']);
    expect(asked).toEqual([{ organisationId: first.organisationId, filter: { stage: null, state: 'closed' } }]);
    expect((await logOf()).map((entry) => [entry.organisationId, entry.action, entry.detail])).toEqual([
      [first.organisationId, 'downloaded', 'state=closed'],
    ]);
  });

  it('answers 403 with the dead link’s words and the phone number for a cookie that opens nothing', async () => {
    const { source, asked } = fakeSource({});
    expect((await portfolioCsvResponse('A'.repeat(43), new URLSearchParams(), deps(source))).status).toBe(403);
    const answer = await portfolioCsvResponse('1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', new URLSearchParams(), deps(source));
    expect(answer.status).toBe(403);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.text()).toBe(`${portfolioDeadLinkText.title}. ${portfolioDeadLinkText.body}\n`);
    expect(portfolioDeadLinkText.body).toContain(business.phone.display);
    expect(asked).toEqual([]);
    expect(await logOf()).toEqual([]);
  });
});
