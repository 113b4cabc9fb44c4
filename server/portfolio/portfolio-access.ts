import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, desc, eq, gt, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { orm, writeBatch } from '@/server/base/db';
import {
  organisationDomains,
  organisationPeople,
  organisations,
  portfolioAccessLog,
  portfolioLinks,
  portfolioSessions,
  PORTFOLIO_ACTIONS,
} from '@/server/base/db-schema';
import { domainOfAddress } from '@/server/ledger/instructing-organisation';

/**
 * Who may see an organisation's portfolio. Each person given a link has a row (organisation_people).
 * A link, e-mailed or printed, is for one opening within PORTFOLIO_LINK_HOURS; each opening starts a
 * session of its own, a cookie that works PORTFOLIO_SESSION_DAYS from its last use, at most
 * SESSIONS_PER_PERSON a person (the least recently used ended first). Links and cookies are random
 * tokens, kept only as their SHA-256, and looked up by it: the database holds nothing that opens a
 * portfolio, and a look-up's time says nothing of which exist. Every check also asks whether the person
 * still stands: not revoked, their organisation not suspended, and their address still at one of its
 * domains (an office link, with no address, stands with its organisation).
 */
export const PORTFOLIO_LINK_HOURS = 24;
export const PORTFOLIO_SESSION_DAYS = 30;
export const SESSIONS_PER_PERSON = 5;
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** 32 random bytes, base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The cookie a link is traded for: `__Host-` on an https site, so no other host or path can set one
 * (a browser keeps such a cookie only Secure, Path=/ and without a Domain); a plain name on plain http
 * (a test or a preview on the machine itself), where a browser would refuse the prefix.
 */
export const portfolioCookieName = (https: boolean) => (https ? '__Host-portfolio' : 'portfolio');

export type PortfolioAction = (typeof PORTFOLIO_ACTIONS)[number];

/** A person whose link or session works, and the organisation whose claims they see. */
export type PortfolioViewer = { personId: number; organisationId: number; organisationName: string; email: string | null };

const newToken = () => randomBytes(32).toString('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The person as a viewer when they still stand (not revoked, organisation not suspended, address at its domains), else null. */
export async function standingPerson(db: Client, personId: number): Promise<PortfolioViewer | null> {
  const [row] = await orm(db)
    .select({
      personId: organisationPeople.id,
      organisationId: organisationPeople.organisationId,
      organisationName: organisations.name,
      email: organisationPeople.email,
    })
    .from(organisationPeople)
    .innerJoin(organisations, eq(organisations.id, organisationPeople.organisationId))
    .where(and(eq(organisationPeople.id, personId), isNull(organisationPeople.revokedMs), isNull(organisations.suspendedMs)));
  if (!row) return null;
  if (row.email === null) return row;
  const domain = domainOfAddress(row.email);
  if (domain === null) return null;
  const [owned] = await orm(db)
    .select({ domain: organisationDomains.domain })
    .from(organisationDomains)
    .where(and(eq(organisationDomains.domain, domain), eq(organisationDomains.organisationId, row.organisationId)));
  return owned ? row : null;
}

/** A new link for a person, for one opening within PORTFOLIO_LINK_HOURS: its token, to put after /portfolio/open/. */
export async function newPortfolioLink(db: Client, personId: number, now: number): Promise<string> {
  const token = newToken();
  await orm(db)
    .insert(portfolioLinks)
    .values({ personId, tokenHash: hashOf(token), createdMs: now });
  return token;
}

/** What opening a link did. */
export type LinkOpening =
  /** Opened: a new session for the viewer, its cookie's value. */
  | { kind: 'opened'; viewer: PortfolioViewer; session: string }
  /** A link of a person who still stands, opened before or older than PORTFOLIO_LINK_HOURS: a new one can be sent. */
  | { kind: 'used-or-old'; personId: number }
  /** No such link, or its person no longer stands. */
  | { kind: 'dead' };

/**
 * Opens a link: the first opening within PORTFOLIO_LINK_HOURS marks it used and starts a session (in one
 * write batch, which also ends the person's least recently used sessions past SESSIONS_PER_PERSON).
 * `browser`: the family its User-Agent names, kept for `--log`.
 */
export async function openPortfolioLink(db: Client, token: string, now: number, browser: string): Promise<LinkOpening> {
  if (!TOKEN_SHAPE.test(token)) return { kind: 'dead' };
  const [link] = await orm(db)
    .select({ id: portfolioLinks.id, personId: portfolioLinks.personId })
    .from(portfolioLinks)
    .where(eq(portfolioLinks.tokenHash, hashOf(token)));
  if (!link) return { kind: 'dead' };
  const viewer = await standingPerson(db, link.personId);
  if (!viewer) return { kind: 'dead' };
  const session = newToken();
  const s = portfolioSessions;
  const fresh = and(
    eq(portfolioLinks.id, link.id),
    isNull(portfolioLinks.usedMs),
    gt(portfolioLinks.createdMs, now - PORTFOLIO_LINK_HOURS * HOUR_MS),
  );
  const newest = orm(db)
    .select({ id: s.id })
    .from(s)
    .where(eq(s.personId, link.personId))
    .orderBy(desc(s.lastUsedMs), desc(s.id))
    .limit(SESSIONS_PER_PERSON);
  // One batch, each statement on the link's use: two openings at once start one session between them.
  const [used] = await writeBatch(db, [
    orm(db).update(portfolioLinks).set({ usedMs: now }).where(fresh),
    orm(db).run(
      sql`INSERT INTO ${s} (person_id, token_hash, created_ms, last_used_ms, browser)
        SELECT ${link.personId}, ${hashOf(session)}, ${now}, ${now}, ${browser} WHERE changes() > 0`,
    ),
    // A use only when the session began (changes() now counts the insert).
    orm(db)
      .update(organisationPeople)
      .set({ lastUsedMs: now })
      .where(and(eq(organisationPeople.id, link.personId), sql`changes() > 0`)),
    orm(db)
      .delete(s)
      .where(and(eq(s.personId, link.personId), notInArray(s.id, newest))),
  ]);
  if (!used || used.rowsAffected === 0) return { kind: 'used-or-old', personId: link.personId };
  return { kind: 'opened', viewer, session };
}

/** A link as it stands now, without using it: its person's, and whether it can still be opened. */
export type LinkStanding = { kind: 'fresh' | 'used-or-old'; viewer: PortfolioViewer } | { kind: 'dead' };

export async function linkStanding(db: Client, token: string | undefined, now: number): Promise<LinkStanding> {
  if (!token || !TOKEN_SHAPE.test(token)) return { kind: 'dead' };
  const [link] = await orm(db)
    .select({ personId: portfolioLinks.personId, createdMs: portfolioLinks.createdMs, usedMs: portfolioLinks.usedMs })
    .from(portfolioLinks)
    .where(eq(portfolioLinks.tokenHash, hashOf(token)));
  const viewer = link ? await standingPerson(db, link.personId) : null;
  if (!link || !viewer) return { kind: 'dead' };
  const fresh = link.usedMs === null && link.createdMs > now - PORTFOLIO_LINK_HOURS * HOUR_MS;
  return { kind: fresh ? 'fresh' : 'used-or-old', viewer };
}

/** A viewer by their session, with the session's id. */
export type SessionViewer = PortfolioViewer & { sessionId: number };

/** The person a session cookie's value opens the portfolio for at `now`, or null (malformed, unknown, ended, expired, no longer standing). */
export async function viewerOfSession(db: Client, value: string | undefined, now: number): Promise<SessionViewer | null> {
  if (!value || !TOKEN_SHAPE.test(value)) return null;
  const [session] = await orm(db)
    .select({ id: portfolioSessions.id, personId: portfolioSessions.personId })
    .from(portfolioSessions)
    .where(and(eq(portfolioSessions.tokenHash, hashOf(value)), gt(portfolioSessions.lastUsedMs, now - PORTFOLIO_SESSION_DAYS * DAY_MS)));
  if (!session) return null;
  const viewer = await standingPerson(db, session.personId);
  return viewer ? { ...viewer, sessionId: session.id } : null;
}

/** A use of the page: the session works PORTFOLIO_SESSION_DAYS from now. */
export async function markPortfolioUse(db: Client, viewer: SessionViewer, now: number): Promise<void> {
  await writeBatch(db, [
    orm(db).update(portfolioSessions).set({ lastUsedMs: now }).where(eq(portfolioSessions.id, viewer.sessionId)),
    orm(db).update(organisationPeople).set({ lastUsedMs: now }).where(eq(organisationPeople.id, viewer.personId)),
  ]);
}

/** Sign out: ends the session a cookie's value names, if any. */
export async function endSession(db: Client, value: string | undefined): Promise<void> {
  if (!value || !TOKEN_SHAPE.test(value)) return;
  await orm(db)
    .delete(portfolioSessions)
    .where(eq(portfolioSessions.tokenHash, hashOf(value)));
}

/**
 * The statements that end every session and unused link of these people (sign out everywhere, a
 * revocation, a dropped domain, a suspension), for one write batch.
 */
export function endAccessOf(db: Client, personIds: readonly number[]) {
  return [
    orm(db)
      .delete(portfolioSessions)
      .where(inArray(portfolioSessions.personId, [...personIds])),
    orm(db)
      .update(portfolioLinks)
      .set({ usedMs: sql`coalesce(${portfolioLinks.usedMs}, 0)` })
      .where(inArray(portfolioLinks.personId, [...personIds])),
  ] as const;
}

/** Keeps who did what with an organisation's portfolio; never fails the page it is on. */
export async function logPortfolioAccess(
  db: Client,
  entry: { organisationId: number; personId: number | null; action: PortfolioAction; detail?: string; now: number },
): Promise<void> {
  try {
    await orm(db)
      .insert(portfolioAccessLog)
      .values({
        organisationId: entry.organisationId,
        personId: entry.personId,
        action: entry.action,
        detail: entry.detail ?? null,
        atMs: entry.now,
      });
  } catch (error) {
    console.error('[portfolio] Could not keep a use of a portfolio:', error instanceof Error ? error.message : error);
  }
}
