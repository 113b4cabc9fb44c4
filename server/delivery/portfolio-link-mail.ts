import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, count, eq, gt, ne } from 'drizzle-orm';
import { portfolioLinkEmail } from '@/content/portfolio-request';
import { orm } from '@/server/base/db';
import { emailKey } from '@/server/base/email-key';
import { portfolioLinkMails as jobs } from '@/server/base/db-schema';
import { isPermanentSmtpFailure, type Mailer } from '@/server/delivery/mailer';
import { attemptsSchedule, createWorker, type JobOutcome } from '@/server/delivery/worker-runner';
import { organisationOfAddress } from '@/server/ledger/instructing-organisation';
import { LINK_MAIL_INTERVAL_MS, LINK_MAILS_PER_DOMAIN, LINK_MAILS_PER_SITE } from '@/server/portfolio/link-request';
import { logPortfolioAccess, newAddressLink, standingAddress } from '@/server/portfolio/portfolio-access';

/** Where a link is traded for the portfolio's cookie: `${SITE_URL}/portfolio/open/<token>`. */
export const PORTFOLIO_OPEN_PREFIX = '/portfolio/open/';

const LEASE_MS = 2 * 60_000;
/** After a failed attempt: 30 s, 1 min … capped at 30 min; given up after 8 attempts (a link asked for is wanted soon). */
const linkMailSchedule = attemptsSchedule(8, 30_000, 30 * 60_000);

type Job = typeof jobs.$inferSelect;

type LinkMailWorkerOptions = {
  db: Client;
  mailer: Mailer;
  from: string;
  /** Where a reply goes (ENQUIRY_TO). */
  replyTo: string;
  /** The site's address (SITE_URL), the link's origin. */
  siteUrl: string;
  pollMs: number;
  now?: () => number;
  owner?: string;
  log?: (line: string) => void;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** Why a request gets no e-mail; the visitor was answered the same either way. */
export type LinkDecline = 'not-registered' | 'revoked' | 'sent-lately' | 'over-budget';

/** Links e-mailed (or being e-mailed) since `since`, other than this job, where `where` holds. */
async function mailedSince(db: Client, job: Job, since: number, where?: ReturnType<typeof eq>) {
  const [row] = await orm(db)
    .select({ n: count() })
    .from(jobs)
    .where(and(eq(jobs.status, 'sent'), gt(jobs.createdMs, since), ne(jobs.id, job.id), where));
  return row?.n ?? 0;
}

/**
 * Whether a request gets its link, and at which organisation: the address's domain registered and not
 * suspended, the address standing there (at one of its domains, its mailbox not revoked), no link
 * e-mailed to the mailbox within LINK_MAIL_INTERVAL_MS, and the domain's and the site's hourly budgets
 * not spent. Only e-mails sent count against the budgets, so addresses nobody registered spend nothing.
 */
async function decide(db: Client, job: Job, now: number): Promise<{ organisationId: number } | { declined: LinkDecline }> {
  const organisationId = await organisationOfAddress(db, job.email);
  if (organisationId === null || !(await standingAddress(db, organisationId, job.email))) {
    // Suspended and revoked read alike to the visitor; the log tells them apart.
    return { declined: organisationId === null ? 'not-registered' : 'revoked' };
  }
  if ((await mailedSince(db, job, now - LINK_MAIL_INTERVAL_MS, eq(jobs.mailbox, job.mailbox))) > 0) return { declined: 'sent-lately' };
  const domainSent = await mailedSince(db, job, now - LINK_MAILS_PER_DOMAIN.windowMs, eq(jobs.domain, job.domain));
  const siteSent = await mailedSince(db, job, now - LINK_MAILS_PER_SITE.windowMs);
  if (domainSent >= LINK_MAILS_PER_DOMAIN.limit || siteSent >= LINK_MAILS_PER_SITE.limit) return { declined: 'over-budget' };
  return { organisationId };
}

/**
 * Decides and sends the links asked for on /insurers (portfolio_link_mails), a worker of the runner like
 * the outbox's. A declined request keeps no address; a sent one keeps its address for the hour's rule
 * and retention. A link of its own for each e-mail, made as it is sent, for that address at its
 * organisation: its person is made when it is first opened. Each e-mail sent is kept in the
 * organisation's access log ('link-sent', with the address as compared); the link itself is never logged.
 */
export function createLinkMailWorker(options: LinkMailWorkerOptions) {
  const { db, mailer } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));

  async function handle(job: Job): Promise<JobOutcome<typeof jobs>> {
    let messageId: string;
    let organisationId: number;
    try {
      const decision = await decide(db, job, now());
      if ('declined' in decision)
        return {
          kind: 'done',
          changes: { status: 'declined', email: '', mailbox: '', lastError: decision.declined },
          line: `job ${job.id}: declined (${decision.declined}), nothing sent`,
        };
      organisationId = decision.organisationId;
      const token = await newAddressLink(db, organisationId, job.email, now());
      ({ messageId } = await mailer.send({
        from: options.from,
        to: job.email,
        replyTo: options.replyTo,
        subject: portfolioLinkEmail.subject,
        text: portfolioLinkEmail.text(`${options.siteUrl}${PORTFOLIO_OPEN_PREFIX}${token}`),
        messageId: `<portfolio-link-${job.id}@homecare-web.invalid>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      }));
    } catch (error) {
      const detail = messageOf(error);
      return {
        kind: 'failed',
        error: detail,
        permanent: isPermanentSmtpFailure(error),
        line: (failed) => `job ${job.id} attempt ${job.attempts} failed${failed ? ' permanently' : ', will retry'}: ${detail}`,
      };
    }
    await logPortfolioAccess(db, { organisationId, personId: null, action: 'link-sent', detail: emailKey(job.email), now: now() });
    return {
      kind: 'done',
      changes: () => ({ status: 'sent', organisationId, sentAt: new Date(now()).toISOString(), messageId, lastError: null }),
      line: `job ${job.id} sent via ${mailer.describe}`,
      leasePassed: `job ${job.id}: sent, but the lease had passed to another worker`,
      notRecorded: (error, givingUp) =>
        `job ${job.id}: the relay accepted it (${messageId}) but it could not be recorded${givingUp ? '; it may be sent again after its lease' : ''}: ${messageOf(error)}`,
    };
  }

  return createWorker({
    name: 'portfolio-links',
    db,
    table: jobs,
    owner: options.owner ?? randomUUID(),
    leaseMs: LEASE_MS,
    schedule: linkMailSchedule,
    claimDue: (claim) => claim({ orderBy: [jobs.nextAttemptMs, jobs.id] }),
    handle,
    pollMs: options.pollMs,
    roundFailed: (error) => `poll failed: ${messageOf(error)}`,
    log,
    now,
  });
}

export type LinkMailWorker = ReturnType<typeof createLinkMailWorker>;
