import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { portfolioLinkEmail } from '@/content/portfolio-request';
import { orm } from '@/server/base/db';
import { organisationPeople, portfolioLinkMails as jobs } from '@/server/base/db-schema';
import { isPermanentSmtpFailure, PermanentMailError, type Mailer } from '@/server/delivery/mailer';
import { attemptsSchedule, createWorker, type JobOutcome } from '@/server/delivery/worker-runner';
import { logPortfolioAccess, newPortfolioLink, standingPerson } from '@/server/portfolio/portfolio-access';

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

/** The person a job is for, as they are now. */
async function personOf(db: Client, personId: number) {
  const [row] = await orm(db)
    .select({ email: organisationPeople.email, organisationId: organisationPeople.organisationId, revokedMs: organisationPeople.revokedMs })
    .from(organisationPeople)
    .where(eq(organisationPeople.id, personId));
  return row;
}

/**
 * Sends the e-mails of portfolio links asked for on /insurers (portfolio_link_mails), a worker of the
 * runner like the outbox's: the address is read and the link made when it is sent, so a person revoked,
 * erased or no longer standing since the request is sent nothing. Each e-mail sent is kept in the organisation's access log
 * ('link-sent'); the link itself is never logged.
 */
export function createLinkMailWorker(options: LinkMailWorkerOptions) {
  const { db, mailer } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));

  async function handle(job: Job): Promise<JobOutcome<typeof jobs>> {
    let messageId: string;
    let organisationId: number;
    try {
      const person = await personOf(db, job.personId);
      if (!person?.email) throw new PermanentMailError(`person ${job.personId} is gone or has no address`);
      if (person.revokedMs !== null) throw new PermanentMailError(`person ${job.personId}'s link was revoked`);
      if (!(await standingPerson(db, job.personId)))
        throw new PermanentMailError(`person ${job.personId}'s organisation is suspended or no longer has their domain`);
      // A link of its own for each e-mail, made as it is sent: one opening within 24 hours.
      const token = await newPortfolioLink(db, job.personId, now());
      organisationId = person.organisationId;
      ({ messageId } = await mailer.send({
        from: options.from,
        to: person.email,
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
    await logPortfolioAccess(db, { organisationId, personId: job.personId, action: 'link-sent', now: now() });
    return {
      kind: 'done',
      changes: () => ({ status: 'sent', sentAt: new Date(now()).toISOString(), messageId, lastError: null }),
      line: `job ${job.id} (person ${job.personId}) sent via ${mailer.describe}`,
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
