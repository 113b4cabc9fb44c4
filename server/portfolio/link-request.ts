import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { portfolioRequestText as text } from '@/content/portfolio-request';
import { LINK_REQUEST_EMAIL_MAX, LINK_REQUEST_FIELD, parseLinkRequest, type LinkRequestState } from '@/lib/portfolio/link-request';
import { getDb, insertSelect, orm, writeBatch } from '@/server/base/db';
import { organisationPeople, portfolioLinkMails } from '@/server/base/db-schema';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';
import { clientAddress, rateLimitKey } from '@/server/edge/client-address.mjs';
import { emailKey } from '@/server/base/email-key';
import { outboxWritten } from '@/server/ledger/outbox';
import { organisationOfAddress } from '@/server/ledger/instructing-organisation';
import { isSuspended } from '@/server/portfolio/organisations';
import { personFor } from '@/server/portfolio/people';

/** At most one e-mail of a link to an address in this long, however often it is asked for. */
export const LINK_MAIL_INTERVAL_MS = 60 * 60_000;

/** Requests a client may make in an hour, whatever the addresses: enough for a typo or two, not for probing. */
export const LINK_REQUESTS_PER_CLIENT = { limit: 10, windowMs: 60 * 60_000 } as const;
/**
 * Requests for one mailbox in an hour from every client together, `+tags` counted as one mailbox
 * (`ann+1@` and `ann+2@` are Ann's): a retry or two, never a flood of e-mails into one inbox.
 */
export const LINK_REQUESTS_PER_MAILBOX = { limit: 3, windowMs: 60 * 60_000 } as const;
/** Requests for the addresses of one domain in an hour: an office asking on a busy morning. */
export const LINK_REQUESTS_PER_DOMAIN = { limit: 30, windowMs: 60 * 60_000 } as const;
/** Requests in an hour for the whole site: what the relay and the database are asked for at most. */
export const LINK_REQUESTS_PER_SITE = { limit: 200, windowMs: 60 * 60_000 } as const;

/**
 * The mailbox an address reaches, as the budgets and revocations count it: compared folded, a `+tag`
 * taken off, the domain without a trailing dot; dots in the name kept as typed (a domain's own rule).
 */
export function mailboxKey(address: string): string {
  const key = emailKey(address);
  const at = key.lastIndexOf('@');
  let domain = key.slice(at + 1);
  while (domain.endsWith('.')) domain = domain.slice(0, -1);
  return `${key.slice(0, at).split('+')[0]}@${domain}`;
}

/** Whether a revoked person of the organisation has this mailbox under any spelling. */
async function mailboxRevoked(db: Client, organisationId: number, mailbox: string): Promise<boolean> {
  const revoked = await orm(db)
    .select({ email: organisationPeople.email })
    .from(organisationPeople)
    .where(and(eq(organisationPeople.organisationId, organisationId), isNotNull(organisationPeople.revokedMs)));
  return revoked.some((person) => person.email !== null && mailboxKey(person.email) === mailbox);
}

/** What a request did, for the tests and the log; the visitor sees the same answer for each but `refused`. */
export type LinkRequestOutcome = 'queued' | 'not-registered' | 'revoked' | 'sent-lately' | 'over-budget' | 'refused';

export type LinkRequestDeps = {
  db?: () => Promise<Client>;
  now?: () => number;
  perClient?: RateLimiter;
  perMailbox?: RateLimiter;
  perDomain?: RateLimiter;
  perSite?: RateLimiter;
};

/**
 * Queues the e-mail of the person's link unless one was queued for them within the hour: the person's
 * `link_sent_ms` is moved on and the job written in one write batch, only when the hour has passed, so
 * two requests at once queue one e-mail.
 */
async function queueLinkMail(db: Client, personId: number, now: number): Promise<boolean> {
  const q = orm(db);
  const due = and(
    eq(organisationPeople.id, personId),
    or(isNull(organisationPeople.linkSentMs), lte(organisationPeople.linkSentMs, now - LINK_MAIL_INTERVAL_MS)),
  );
  // Both statements test the same condition in one write batch: the job goes in only with the move.
  const job = { personId, status: 'pending', nextAttemptMs: now, createdMs: now } as const;
  const [queued] = await writeBatch(db, [
    q.run(sql`${insertSelect(portfolioLinkMails, job, sql`WHERE EXISTS (SELECT 1 FROM ${organisationPeople} WHERE ${due})`)}`),
    q.update(organisationPeople).set({ linkSentMs: now }).where(due),
  ]);
  return queued?.rowsAffected === 1;
}

/**
 * Asks for a person's portfolio link by their work address: a registered domain's address that is not
 * revoked gets its link by e-mail (at most one an hour); any other valid address nothing. The answer on
 * screen is the same for all of them, so nobody learns which domains are registered. Each client has a
 * budget of requests, spent before the database is read.
 */
export function createLinkRequests(deps: LinkRequestDeps = {}) {
  const now = deps.now ?? Date.now;
  const openDb = deps.db ?? getDb;
  const perClient = deps.perClient ?? createRateLimiter({ ...LINK_REQUESTS_PER_CLIENT, now });
  const perMailbox = deps.perMailbox ?? createRateLimiter({ ...LINK_REQUESTS_PER_MAILBOX, now });
  const perDomain = deps.perDomain ?? createRateLimiter({ ...LINK_REQUESTS_PER_DOMAIN, now });
  const perSite = deps.perSite ?? createRateLimiter({ ...LINK_REQUESTS_PER_SITE, now });

  async function handle(email: string, headers: Headers): Promise<{ state: LinkRequestState; outcome: LinkRequestOutcome }> {
    const refused = (message: string, fieldError?: string) => ({
      state: { kind: 'refused', message, fieldError, email } as const,
      outcome: 'refused' as const,
    });
    const parsed = parseLinkRequest({ email });
    if (!parsed.ok) return refused(parsed.error, parsed.error);
    const budget = perClient.hit(rateLimitKey(clientAddress(headers)));
    if (!budget.allowed) return refused(text.tooMany(Math.max(1, Math.ceil(budget.retryAfterSeconds / 60))));
    const answered = (outcome: LinkRequestOutcome) => ({ state: { kind: 'answered' } as const, outcome });
    // The mailbox's budget is spent for every valid address, before the database is read. The domain's
    // and the site's only for a registered domain's: else a stranger typing random addresses could spend
    // them and leave every insurer's people without their links. Past any, the answer every address gets.
    const mailbox = mailboxKey(parsed.email);
    if (!perMailbox.hit(mailbox).allowed) return answered('over-budget');
    try {
      const db = await openDb();
      const at = now();
      const organisationId = await organisationOfAddress(db, parsed.email);
      // A suspended organisation is answered as an unknown domain is: nothing says it is registered.
      if (organisationId === null || (await isSuspended(db, organisationId))) return answered('not-registered');
      const spent = [perDomain.hit(mailbox.slice(mailbox.lastIndexOf('@') + 1)), perSite.hit('site')];
      if (spent.some((budget) => !budget.allowed)) return answered('over-budget');
      // A revoked person stays revoked under another spelling of their mailbox (a +tag, a trailing dot).
      if (await mailboxRevoked(db, organisationId, mailbox)) return answered('revoked');
      const personId = await personFor(db, organisationId, parsed.email, at, 'self-service');
      if (personId === null) return answered('revoked');
      if (!(await queueLinkMail(db, personId, at))) return answered('sent-lately');
      outboxWritten();
      return answered('queued');
    } catch (error) {
      console.error('[portfolio] Could not take a request for a link:', error instanceof Error ? error.message : error);
      return refused(text.unavailable);
    }
  }

  return {
    handle,
    /** The form as posted (with or without the page's script): only its one field is read, and only so much of it. */
    async fromForm(form: FormData, headers: Headers): Promise<LinkRequestState> {
      const value = form.get(LINK_REQUEST_FIELD);
      // A value far past the longest address is refused by the schema's cap without being read whole.
      const email = typeof value === 'string' ? value.slice(0, LINK_REQUEST_EMAIL_MAX * 4) : '';
      return (await handle(email, headers)).state;
    },
  };
}

let shared: ReturnType<typeof createLinkRequests> | undefined;

/** The process's link requests (one budget per client), made on first use. */
export function linkRequests() {
  shared ??= createLinkRequests();
  return shared;
}
