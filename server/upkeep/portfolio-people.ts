import 'server-only';
import type { Client } from '@libsql/client';
import { and, asc, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import {
  organisationPeople,
  organisations,
  portfolioAccessLog,
  portfolioLinkMails,
  portfolioLinks,
  portfolioSessions,
} from '@/server/base/db-schema';
import { PORTFOLIO_SESSION_DAYS } from '@/server/portfolio/portfolio-access';
import { emailKey, mailboxKey } from '@/server/base/email-key';

/**
 * The personal data of the portfolio: the people of an instructing organisation given a link (their
 * address) and what the access log keeps of their uses. A subject access request exports them with the
 * address's enquiries; an erasure deletes them; retention deletes a person unused for the period
 * enquiries are kept, and access log entries older than it.
 */

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The people rows an address was given a link as, with each use the access log keeps of it. */
export async function portfolioExportOf(db: Client, email: string) {
  const people = await orm(db)
    .select({
      id: organisationPeople.id,
      organisation: organisations.name,
      email: organisationPeople.email,
      createdMs: organisationPeople.createdMs,
      lastUsedMs: organisationPeople.lastUsedMs,
      revokedMs: organisationPeople.revokedMs,
    })
    .from(organisationPeople)
    .innerJoin(organisations, eq(organisations.id, organisationPeople.organisationId))
    .where(eq(organisationPeople.emailKey, emailKey(email)))
    .orderBy(asc(organisationPeople.id));
  return Promise.all(
    people.map(async (person) => ({
      organisation: person.organisation,
      email: person.email,
      linkGivenAt: isoOrNull(person.createdMs),
      lastUsedAt: isoOrNull(person.lastUsedMs),
      revokedAt: isoOrNull(person.revokedMs),
      uses: (
        await orm(db)
          .select({ action: portfolioAccessLog.action, detail: portfolioAccessLog.detail, atMs: portfolioAccessLog.atMs })
          .from(portfolioAccessLog)
          .where(eq(portfolioAccessLog.personId, person.id))
          .orderBy(asc(portfolioAccessLog.atMs), asc(portfolioAccessLog.id))
      ).map(({ atMs, ...use }) => ({ ...use, at: new Date(atMs).toISOString() })),
    })),
  );
}

/** Deletes the people `where` selects and their access log entries (two statements for one write batch, in this order). */
function deletePeople(db: Client, where: SQL) {
  const theirs = orm(db).select({ id: organisationPeople.id }).from(organisationPeople).where(where);
  return [
    orm(db).delete(portfolioAccessLog).where(inArray(portfolioAccessLog.personId, theirs)),
    orm(db).delete(organisationPeople).where(where),
  ] as const;
}

/** An erasure's statements: the address's people rows and their uses (the people rows' count is the second result). */
export const erasePortfolioPeople = (db: Client, email: string) => deletePeople(db, eq(organisationPeople.emailKey, emailKey(email)));

/** An erasure's statements for the address's links e-mailed, the requests that sent them and the log of their sending. */
export const erasePortfolioLinkMails = (db: Client, email: string) =>
  [
    orm(db)
      .delete(portfolioAccessLog)
      .where(and(eq(portfolioAccessLog.action, 'link-sent'), eq(portfolioAccessLog.detail, emailKey(email)))),
    orm(db)
      .delete(portfolioLinks)
      .where(eq(portfolioLinks.emailKey, emailKey(email))),
    orm(db)
      .delete(portfolioLinkMails)
      .where(eq(portfolioLinkMails.mailbox, mailboxKey(email))),
  ] as const;

/**
 * Retention's statements: access log entries older than `cutoff`, then each person last given a link,
 * used or revoked before it with the rest of theirs (the people rows' count is the third result).
 */
export function expiredPortfolioPeople(db: Client, cutoff: number) {
  const p = organisationPeople;
  const lastSeen = sql`max(${p.createdMs}, coalesce(${p.lastUsedMs}, 0), coalesce(${p.revokedMs}, 0))`;
  return [
    orm(db).delete(portfolioAccessLog).where(lt(portfolioAccessLog.atMs, cutoff)),
    ...deletePeople(db, lt(lastSeen, cutoff)),
  ] as const;
}

/**
 * Retention's statements for what can no longer open a portfolio: sessions unused for
 * PORTFOLIO_SESSION_DAYS, and links older than that (a link past its 24 hours is kept that long only so
 * its page can offer a new one to the same address), and the requests for links as long (a sent one
 * keeps its address only for the hour between two e-mails to a mailbox; a declined one keeps none).
 */
export function endedPortfolioAccess(db: Client, now: number) {
  const before = now - PORTFOLIO_SESSION_DAYS * 24 * 60 * 60_000;
  return [
    orm(db).delete(portfolioSessions).where(lt(portfolioSessions.lastUsedMs, before)),
    orm(db).delete(portfolioLinks).where(lt(portfolioLinks.createdMs, before)),
    orm(db)
      .delete(portfolioLinkMails)
      .where(and(lt(portfolioLinkMails.createdMs, before), ne(portfolioLinkMails.status, 'pending'))),
  ] as const;
}
