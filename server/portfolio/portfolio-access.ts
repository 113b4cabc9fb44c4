import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, desc, eq, gt, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
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
import { emailKey } from '@/server/base/email-key';
import { domainOfAddress } from '@/server/ledger/instructing-organisation';
import { mailboxRevoked, personFor } from '@/server/portfolio/people';

/**
 * Who may see an organisation's portfolio. Each person who opened a link, or was printed one, has a row
 * (organisation_people); a link e-mailed to an address makes its person when it is first opened.
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

/** Whether an address is still at one of the organisation's domains. */
async function atItsDomains(db: Client, organisationId: number, email: string): Promise<boolean> {
  const domain = domainOfAddress(email);
  if (domain === null) return false;
  const [owned] = await orm(db)
    .select({ domain: organisationDomains.domain })
    .from(organisationDomains)
    .where(and(eq(organisationDomains.domain, domain), eq(organisationDomains.organisationId, organisationId)));
  return owned !== undefined;
}

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
  return (await atItsDomains(db, row.organisationId, row.email)) ? row : null;
}

/** Whom a link is for: its person, or (a link e-mailed and not yet opened) an address at the organisation. */
export type LinkHolder = Omit<PortfolioViewer, 'personId'> & { personId: number | null };

/**
 * Whether an address still stands at an organisation as a person would: the organisation not suspended,
 * the address at one of its domains, and its mailbox not revoked under any spelling.
 */
export async function standingAddress(db: Client, organisationId: number, email: string): Promise<LinkHolder | null> {
  const [organisation] = await orm(db)
    .select({ name: organisations.name })
    .from(organisations)
    .where(and(eq(organisations.id, organisationId), isNull(organisations.suspendedMs)));
  if (!organisation || !(await atItsDomains(db, organisationId, email))) return null;
  if (await mailboxRevoked(db, organisationId, email)) return null;
  return { personId: null, organisationId, organisationName: organisation.name, email };
}

/** A link's holder as they stand now, or null. */
async function standingHolder(db: Client, link: { personId: number | null; organisationId: number; email: string | null }) {
  if (link.personId !== null) return standingPerson(db, link.personId);
  return link.email === null ? null : standingAddress(db, link.organisationId, link.email);
}

/** A new link for a person (the operator's `--link`), for one opening within PORTFOLIO_LINK_HOURS: its token, to put after /portfolio/open/. */
export async function newPortfolioLink(db: Client, personId: number, now: number): Promise<string> {
  const [person] = await orm(db)
    .select({ organisationId: organisationPeople.organisationId })
    .from(organisationPeople)
    .where(eq(organisationPeople.id, personId));
  if (!person) throw new Error(`No person ${personId} to make a link for.`);
  const token = newToken();
  await orm(db)
    .insert(portfolioLinks)
    .values({ organisationId: person.organisationId, personId, tokenHash: hashOf(token), createdMs: now });
  return token;
}

/** A new link e-mailed to an address at an organisation; its person is made when it is first opened. */
export async function newAddressLink(db: Client, organisationId: number, email: string, now: number): Promise<string> {
  const token = newToken();
  await orm(db)
    .insert(portfolioLinks)
    .values({ organisationId, email, emailKey: emailKey(email), tokenHash: hashOf(token), createdMs: now });
  return token;
}

/** What opening a link did. */
export type LinkOpening =
  /** Opened: a new session for the viewer, its cookie's value. */
  | { kind: 'opened'; viewer: PortfolioViewer; session: string }
  /** A link whose holder still stands, opened before or older than PORTFOLIO_LINK_HOURS: a new one can be sent. */
  | { kind: 'used-or-old' }
  /** No such link, or its holder no longer stands. */
  | { kind: 'dead' };

async function linkOfToken(db: Client, token: string | undefined) {
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  const [link] = await orm(db)
    .select({
      id: portfolioLinks.id,
      personId: portfolioLinks.personId,
      organisationId: portfolioLinks.organisationId,
      email: portfolioLinks.email,
      createdMs: portfolioLinks.createdMs,
      usedMs: portfolioLinks.usedMs,
    })
    .from(portfolioLinks)
    .where(eq(portfolioLinks.tokenHash, hashOf(token)));
  return link;
}

const isFresh = (link: { usedMs: number | null; createdMs: number }, now: number) =>
  link.usedMs === null && link.createdMs > now - PORTFOLIO_LINK_HOURS * HOUR_MS;

/**
 * Opens a link: the first opening within PORTFOLIO_LINK_HOURS makes its person if it has none yet, marks
 * it used and starts a session (in one write batch, which also ends the person's least recently used
 * sessions past SESSIONS_PER_PERSON). `browser`: the family its User-Agent names, kept for `--log`.
 */
export async function openPortfolioLink(db: Client, token: string, now: number, browser: string): Promise<LinkOpening> {
  const link = await linkOfToken(db, token);
  const holder = link ? await standingHolder(db, link) : null;
  if (!link || !holder) return { kind: 'dead' };
  if (!isFresh(link, now)) return { kind: 'used-or-old' };
  const personId = link.personId ?? (await personFor(db, link.organisationId, holder.email, now, 'self-service'));
  if (personId === null) return { kind: 'dead' };
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
    .where(eq(s.personId, personId))
    .orderBy(desc(s.lastUsedMs), desc(s.id))
    .limit(SESSIONS_PER_PERSON);
  // One batch, each statement on the link's use: two openings at once start one session between them.
  const [used] = await writeBatch(db, [
    orm(db).update(portfolioLinks).set({ usedMs: now, personId }).where(fresh),
    orm(db).run(
      sql`INSERT INTO ${s} (person_id, token_hash, created_ms, last_used_ms, browser)
        SELECT ${personId}, ${hashOf(session)}, ${now}, ${now}, ${browser} WHERE changes() > 0`,
    ),
    // A use only when the session began (changes() now counts the insert).
    orm(db)
      .update(organisationPeople)
      .set({ lastUsedMs: now })
      .where(and(eq(organisationPeople.id, personId), sql`changes() > 0`)),
    orm(db)
      .delete(s)
      .where(and(eq(s.personId, personId), notInArray(s.id, newest))),
  ]);
  if (!used || used.rowsAffected === 0) return { kind: 'used-or-old' };
  return { kind: 'opened', viewer: { ...holder, personId }, session };
}

/** A link as it stands now, without using it: whom it is for, and whether it can still be opened. */
export type LinkStanding = { kind: 'fresh' | 'used-or-old'; holder: LinkHolder } | { kind: 'dead' };

export async function linkStanding(db: Client, token: string | undefined, now: number): Promise<LinkStanding> {
  const link = await linkOfToken(db, token);
  const holder = link ? await standingHolder(db, link) : null;
  if (!link || !holder) return { kind: 'dead' };
  return { kind: isFresh(link, now) ? 'fresh' : 'used-or-old', holder };
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
 * The statements that end every session and unused link of these people, those e-mailed to their
 * address and not yet opened included (sign out everywhere, a revocation, a dropped domain, a
 * suspension), for one write batch.
 */
export function endAccessOf(db: Client, personIds: readonly number[]) {
  const ids = [...personIds];
  const theirAddresses = orm(db)
    .select({ organisationId: organisationPeople.organisationId, emailKey: organisationPeople.emailKey })
    .from(organisationPeople)
    .where(inArray(organisationPeople.id, ids));
  return [
    orm(db).delete(portfolioSessions).where(inArray(portfolioSessions.personId, ids)),
    orm(db)
      .update(portfolioLinks)
      .set({ usedMs: sql`coalesce(${portfolioLinks.usedMs}, 0)` })
      .where(
        or(
          inArray(portfolioLinks.personId, ids),
          and(isNull(portfolioLinks.personId), sql`(${portfolioLinks.organisationId}, ${portfolioLinks.emailKey}) IN ${theirAddresses}`),
        ),
      ),
  ] as const;
}

/** The statement that ends every link of an organisation e-mailed and not yet opened (a suspension, a revocation of all). */
export const endAddressLinksOf = (db: Client, organisationId: number) =>
  orm(db)
    .update(portfolioLinks)
    .set({ usedMs: sql`coalesce(${portfolioLinks.usedMs}, 0)` })
    .where(and(eq(portfolioLinks.organisationId, organisationId), isNull(portfolioLinks.personId)));

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
