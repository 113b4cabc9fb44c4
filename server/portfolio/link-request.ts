import 'server-only';
import type { Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { portfolioRequestText as text } from '@/content/portfolio-request';
import { LINK_REQUEST_EMAIL_MAX, LINK_REQUEST_FIELD, parseLinkRequest, type LinkRequestState } from '@/lib/portfolio/link-request';
import { getDb, insertSelect, orm } from '@/server/base/db';
import { portfolioLinkMails } from '@/server/base/db-schema';
import { mailboxKey } from '@/server/base/email-key';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';
import { clientAddress, rateLimitKey } from '@/server/edge/client-address.mjs';
import { outboxWritten } from '@/server/ledger/outbox';

export { mailboxKey } from '@/server/base/email-key';

/** Requests a client may make in an hour, whatever the addresses: enough for a typo or two, not for probing. */
export const LINK_REQUESTS_PER_CLIENT = { limit: 10, windowMs: 60 * 60_000 } as const;
/**
 * Requests for one mailbox in an hour from every client together, `+tags` counted as one mailbox
 * (`ann+1@` and `ann+2@` are Ann's): a retry or two, never a flood of e-mails into one inbox.
 */
export const LINK_REQUESTS_PER_MAILBOX = { limit: 3, windowMs: 60 * 60_000 } as const;
/**
 * Requests waiting for the mail worker at once, for every address together: far above what people ask
 * for (the worker decides each in milliseconds), and the bound on rows a crowd of clients can queue.
 */
export const LINK_REQUESTS_WAITING_MAX = 500;

/** At most one e-mail of a link to a mailbox in this long, however often it is asked for (the mail worker's rule). */
export const LINK_MAIL_INTERVAL_MS = 60 * 60_000;
/** Links e-mailed to the addresses of one domain in an hour (the mail worker's rule): an office asking on a busy morning. */
export const LINK_MAILS_PER_DOMAIN = { limit: 30, windowMs: 60 * 60_000 } as const;
/** Links e-mailed in an hour for the whole site (the mail worker's rule): what the relay is asked for at most. */
export const LINK_MAILS_PER_SITE = { limit: 200, windowMs: 60 * 60_000 } as const;

/** What a request did, for the tests and the log; the visitor sees the same answer for each but `refused`. */
export type LinkRequestOutcome = 'queued' | 'over-budget' | 'refused';

export type LinkRequestDeps = {
  db?: () => Promise<Client>;
  now?: () => number;
  perClient?: RateLimiter;
  perMailbox?: RateLimiter;
};

/**
 * Queues the address for the mail worker, which decides what it gets
 * (server/delivery/portfolio-link-mail.ts), unless LINK_REQUESTS_WAITING_MAX wait already: one insert
 * whatever the address, so the answer's time says nothing of which domains are registered.
 */
async function queueRequest(db: Client, email: string, now: number): Promise<boolean> {
  const mailbox = mailboxKey(email);
  const job = {
    email,
    mailbox,
    domain: mailbox.slice(mailbox.lastIndexOf('@') + 1),
    status: 'pending',
    nextAttemptMs: now,
    createdMs: now,
  } as const;
  const waiting = sql`(SELECT count(*) FROM ${portfolioLinkMails} WHERE ${portfolioLinkMails.status} = 'pending')`;
  const queued = await orm(db).run(insertSelect(portfolioLinkMails, job, sql`WHERE ${waiting} < ${LINK_REQUESTS_WAITING_MAX}`));
  return queued.rowsAffected === 1;
}

/**
 * Asks for a person's portfolio link by their work address. Every valid address within the client's and
 * the mailbox's budgets is queued alike; the mail worker sends a registered domain's address its link
 * (within the domain's and the site's budgets, at most one an hour to a mailbox) and any other nothing.
 * The answer on screen is the same for all of them, so nobody learns which domains are registered.
 */
export function createLinkRequests(deps: LinkRequestDeps = {}) {
  const now = deps.now ?? Date.now;
  const openDb = deps.db ?? getDb;
  const perClient = deps.perClient ?? createRateLimiter({ ...LINK_REQUESTS_PER_CLIENT, now });
  const perMailbox = deps.perMailbox ?? createRateLimiter({ ...LINK_REQUESTS_PER_MAILBOX, now });

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
    // Past the mailbox's budget, or with the queue full, the answer every address gets.
    if (!perMailbox.hit(mailboxKey(parsed.email)).allowed) return answered('over-budget');
    try {
      if (!(await queueRequest(await openDb(), parsed.email, now()))) return answered('over-budget');
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
