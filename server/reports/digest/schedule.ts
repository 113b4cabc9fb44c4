import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { eq, sql } from 'drizzle-orm';
import { webhooksConfigured } from '@/server/crm/webhook-status';
import { insertSelect, orm } from '@/server/base/db';
import { digests } from '@/server/base/db-schema';
import { attemptsSchedule, createWorker, type JobOutcome, type JobReport, type StartableWorker } from '@/server/delivery/worker-runner';
import { composeDigest, type DigestEmail } from '@/server/reports/digest/sections';
import { gatherDigestFacts, type DigestWindow, type GatherOptions } from '@/server/reports/digest/facts';
import {
  DIGEST_HOUR,
  DIGEST_TIME_ZONE,
  latestDuePeriod,
  periodContaining,
  previousPeriod,
  type DigestMode,
  type DigestPeriod,
} from '@/server/reports/digest/period';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/intake/enquiry-settings';
import { configuredPhotoStorage } from '@/server/reports/health';
import { isPermanentSmtpFailure, type Mailer } from '@/server/delivery/mailer';
import { digestsMigration } from '@/server/base/migrations/0008-digests';

/** A digest being sent is another process's for this long; past it, it is taken to have died and is sent again. */
const DIGEST_LEASE_MS = 5 * 60_000;
/** After a failed attempt: 1 min, 2 min … capped at 1 h; given up after 10 attempts. */
const digestSchedule = attemptsSchedule(10, 60_000, 60 * 60_000);
/** How often the server looks whether a digest is due. */
const DIGEST_TICK_MS = 60_000;

type DigestRow = typeof digests.$inferSelect;

/** A digest the relay accepted. */
type SentDigest = { messageId: string; subject: string };

type DigestOutcome =
  | { result: 'sent'; key: string; messageId: string; subject: string }
  | { result: 'will-retry' | 'failed'; key: string; error: string }
  /** `--send` found this period's digest already sent, being sent, or given up on. */
  | { result: 'already-sent'; key: string; sentAt: string | null }
  | { result: 'in-progress'; key: string }
  /** A later period is already recorded (the clock went back): nothing older is sent. */
  | { result: 'superseded'; key: string };

type DigestSenderOptions = {
  db: Client;
  mailer: Mailer;
  from: string;
  /** Who gets the digest (ENQUIRY_DIGEST_TO, else ENQUIRY_TO). */
  to: string;
  mode: DigestMode;
  now?: () => number;
  owner?: string;
  timeZone?: string;
  /** What the digest's health check is given (the photo storage's budget; in the server, the outbox worker's pause). */
  health?: () => GatherOptions['health'];
  log?: (line: string) => void;
};

/** `<digest-weekly-2026-11-23@homecare-web.invalid>`: the same for every attempt, so a copy sent twice after a crash is one message to mail clients. */
const digestMessageId = (key: string) => `<digest-${key.replace(':', '-')}@homecare-web.invalid>`;

/**
 * When the digest started in this database (its migration was applied): a period that ended before then
 * is not sent, so a new site (or one just updated) does not open with a digest of a week it did not see.
 */
async function digestsStartedMs(db: Client): Promise<number> {
  const result = await db.execute({ sql: 'SELECT applied_at FROM schema_migrations WHERE id = ?', args: [digestsMigration.id] });
  const applied = result.rows[0]?.applied_at;
  return typeof applied === 'string' ? Date.parse(applied) : Number.POSITIVE_INFINITY;
}

/**
 * What a digest of `period` counts: from the period's start (or from where an early digest of the period
 * before stopped, so nothing falls between two digests) to `toMs`.
 */
async function windowOf(db: Client, period: DigestPeriod, toMs: number, timeZone: string): Promise<DigestWindow> {
  const before = previousPeriod(period, timeZone);
  const [earlier] = await orm(db)
    .select({ coversToMs: digests.coversToMs, periodEndMs: digests.periodEndMs, status: digests.status })
    .from(digests)
    .where(eq(digests.periodKey, before.key));
  const fromMs = earlier && earlier.status !== 'failed' && earlier.coversToMs < earlier.periodEndMs ? earlier.coversToMs : period.startMs;
  return {
    mode: period.mode,
    covers: { fromMs, toMs },
    partial: toMs < period.endMs,
    previous: { fromMs: before.startMs, toMs: before.endMs },
  };
}

function windowOfRow(row: DigestRow, timeZone: string): DigestWindow {
  const before = previousPeriod(periodContaining(row.periodStartMs, row.mode, timeZone), timeZone);
  return {
    mode: row.mode,
    covers: { fromMs: row.coversFromMs, toMs: row.coversToMs },
    partial: row.coversToMs < row.periodEndMs,
    previous: { fromMs: before.startMs, toMs: before.endMs },
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** What became of one row the runner handed to the digest's handler. */
function outcomeOf(report: JobReport<typeof digests, SentDigest>): DigestOutcome {
  const key = report.job.periodKey;
  if (report.state === 'done' && report.value) return { result: 'sent', key, ...report.value };
  return { result: report.state === 'failed' ? 'failed' : 'will-retry', key, error: report.error ?? '' };
}

/** What sending one period's digest means: its facts gathered, composed, and sent with its own Message-ID. */
function digestHandler(options: DigestSenderOptions & { now: () => number; timeZone: string }) {
  const { db, mailer, now, timeZone } = options;
  return async function sendDigest(row: DigestRow): Promise<JobOutcome<typeof digests, SentDigest>> {
    let email: DigestEmail;
    let messageId: string;
    try {
      const facts = await gatherDigestFacts(db, windowOfRow(row, timeZone), { now: now(), timeZone, health: options.health?.() });
      email = composeDigest(facts);
      ({ messageId } = await mailer.send({
        from: options.from,
        to: row.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: digestMessageId(row.periodKey),
        headers: { 'Auto-Submitted': 'auto-generated' },
      }));
    } catch (error) {
      const detail = errorText(error);
      return {
        kind: 'failed',
        error: detail,
        permanent: isPermanentSmtpFailure(error),
        line: (giveUp) => `${row.periodKey} attempt ${row.attempts} failed${giveUp ? ' permanently' : ', will retry'}: ${detail}`,
      };
    }
    // Marked sent once the relay has accepted it, trying again a few times while the database refuses
    // the write. Then it gives up: after its lease it is sent again, with the same Message-ID, as after
    // a crash between the send and the record.
    return {
      kind: 'done',
      changes: () => ({ status: 'sent', sentAt: new Date(now()).toISOString(), messageId, lastError: null }),
      value: { messageId, subject: email.subject },
      line: `${row.periodKey} sent to ${row.recipient} via ${mailer.describe}`,
      leasePassed: `${row.periodKey}: sent, but its lease had passed to another process`,
      notRecorded: (error) =>
        `${row.periodKey}: the relay accepted it (${messageId}) but it could not be recorded; it may be sent again after its lease: ${errorText(error)}`,
    };
  };
}

/** Creates the period's row unless it exists or a period ending as late or later is recorded; true when it exists now. */
async function ensureRow(
  options: DigestSenderOptions & { now: () => number; timeZone: string },
  period: DigestPeriod,
  trigger: 'schedule' | 'command',
  toMs: number,
): Promise<boolean> {
  const { db, now, timeZone } = options;
  const q = orm(db);
  const window = await windowOf(db, period, toMs, timeZone);
  const periodRow = {
    periodKey: period.key,
    mode: period.mode,
    periodStartMs: period.startMs,
    periodEndMs: period.endMs,
    coversFromMs: window.covers.fromMs,
    coversToMs: window.covers.toMs,
    trigger,
    recipient: options.to,
    status: 'pending',
    attempts: 0,
    nextAttemptMs: now(),
  } as const;
  const noLaterPeriod = sql`WHERE NOT EXISTS (SELECT 1 FROM ${digests} WHERE ${digests.periodEndMs} >= ${period.endMs} AND ${digests.periodKey} <> ${period.key})`;
  await q.run(sql`${insertSelect(digests, periodRow, noLaterPeriod)} ON CONFLICT (period_key) DO NOTHING`);
  const [row] = await q.select({ id: digests.id }).from(digests).where(eq(digests.periodKey, period.key));
  return row !== undefined;
}

/**
 * Sends the company's digest once per period. The period's row is created with INSERT … ON CONFLICT DO
 * NOTHING (its key unique), and only if no later period is recorded; then it is a job of the worker
 * runner, as the outbox's are: leased, and marked sent only by the process still holding the lease.
 */
export function createDigestSender(options: DigestSenderOptions) {
  const { db } = options;
  const now = options.now ?? Date.now;
  const timeZone = options.timeZone ?? DIGEST_TIME_ZONE;
  const settings = { ...options, now, timeZone };
  const q = orm(db);
  let startedMs: number | undefined;

  /**
   * The schedule's step, before the runner sends every row that is due (retries included): makes the row
   * of the latest period that has ended (when it ended after the digest started; a period missed while
   * the site was down is sent now, only the latest).
   */
  async function ensureDueRow(): Promise<void> {
    startedMs ??= await digestsStartedMs(db);
    const due = latestDuePeriod(now(), options.mode, timeZone);
    if (due.endMs > startedMs) {
      const [existing] = await q.select({ id: digests.id }).from(digests).where(eq(digests.periodKey, due.key));
      if (!existing) await ensureRow(settings, due, 'schedule', due.endMs);
    }
  }

  const worker = createWorker({
    name: 'digest',
    db,
    table: digests,
    owner: options.owner ?? randomUUID(),
    leaseMs: DIGEST_LEASE_MS,
    schedule: digestSchedule,
    claimDue: (claim) => claim({ orderBy: [digests.periodEndMs], set: { status: 'pending' } }),
    handle: digestHandler(settings),
    recordUntilStopped: false,
    beforeRound: ensureDueRow,
    pollMs: DIGEST_TICK_MS,
    roundFailed: (error) => `could not check for a due digest: ${errorText(error)}`,
    summarize: (reports) => reports.map(outcomeOf),
    log: options.log ?? ((line: string) => console.log(line)),
    now,
  });

  /**
   * `npm run digest -- --send`: the digest of the period in progress, from its start to now, sent now. It
   * is that period's digest: the schedule sends none at the period's end, and the next period's digest
   * starts where this one stopped.
   */
  async function sendCurrent(): Promise<DigestOutcome> {
    const current = periodContaining(now(), options.mode, timeZone);
    const [existing] = await q.select().from(digests).where(eq(digests.periodKey, current.key));
    if (existing?.status === 'sent') return { result: 'already-sent', key: current.key, sentAt: existing.sentAt };
    if (!existing && !(await ensureRow(settings, current, 'command', now()))) return { result: 'superseded', key: current.key };
    // The named period's row, whatever its next attempt time, failed or not.
    const [row] = await worker.claim({
      orderBy: [digests.periodEndMs],
      where: eq(digests.periodKey, current.key),
      statuses: ['pending', 'failed'],
      due: false,
      set: { status: 'pending' },
    });
    if (!row) return { result: 'in-progress', key: current.key };
    return outcomeOf(await worker.runJob(row));
  }

  return {
    owner: worker.owner,
    /** The schedule's step: makes the row of the latest period that has ended, then sends every row that is due. */
    runDue: worker.runOnce,
    sendCurrent,
    /** Runs the schedule's step now and every `tickMs` (the server), logging a failed step to `log` (default stderr). */
    start: (every: { tickMs?: number; log?: (line: string) => void } = {}) =>
      worker.start({ pollMs: every.tickMs ?? DIGEST_TICK_MS, log: every.log ?? ((line: string) => console.error(line)) }),
    /** Resolves once a step in progress is done. */
    stop: worker.stop,
  };
}

type DigestSender = ReturnType<typeof createDigestSender>;

/**
 * The digest `npm run digest -- --dry-run` prints, sending and recording nothing: that of the period
 * holding `atMs` (default now): as sent, if it was; else as it would be sent now (up to now while the
 * period lasts).
 */
export async function previewDigest(
  db: Client,
  options: { mode: DigestMode; atMs?: number; now?: number; timeZone?: string; health?: GatherOptions['health'] },
): Promise<{ period: DigestPeriod; email: DigestEmail; sentAt: string | null }> {
  const timeZone = options.timeZone ?? DIGEST_TIME_ZONE;
  const now = options.now ?? Date.now();
  const period = periodContaining(options.atMs ?? now, options.mode, timeZone);
  const [row] = await orm(db).select().from(digests).where(eq(digests.periodKey, period.key));
  const window = row ? windowOfRow(row, timeZone) : await windowOf(db, period, Math.min(now, period.endMs), timeZone);
  const facts = await gatherDigestFacts(db, window, { now, timeZone, health: options.health });
  return { period, email: composeDigest(facts), sentAt: row?.sentAt ?? null };
}

/** Runs `sender.runDue()` now and every `tickMs` (the server); resolves stop() once a step in progress is done. */
export function startDigestSchedule(sender: DigestSender, options: { tickMs?: number; log?: (line: string) => void } = {}) {
  sender.start(options);
  return { stop: sender.stop };
}

/** The digest's settings: ENQUIRY_DIGEST, and its recipient (ENQUIRY_DIGEST_TO, else ENQUIRY_TO, else the company's address). */
export function digestSettings(config: EnquiryConfig = loadEnquiryConfig()): { mode: DigestMode | 'off'; to: string; from: string } {
  return { mode: config.digest, to: config.digestTo ?? config.to, from: config.from };
}

/** A sender with this process's configuration (the server, `npm run digest`); null when ENQUIRY_DIGEST=off. */
export function configuredDigestSender(
  db: Client,
  mailer: Mailer,
  extra: { worker?: () => { pausedUntil: number | null; pauseReason: string | null } } = {},
): DigestSender | null {
  const settings = digestSettings();
  if (settings.mode === 'off') return null;
  const photoStorage = configuredPhotoStorage();
  return createDigestSender({
    db,
    mailer,
    from: settings.from,
    to: settings.to,
    mode: settings.mode,
    health: () => ({ photoStorage, worker: extra.worker?.() ?? null, webhooks: webhooksConfigured() }),
  });
}

/** The digest's worker in the server, registered beside the outbox's (server/background.ts); null when ENQUIRY_DIGEST=off. */
export function configuredDigestWorker(
  db: Client,
  mailer: Mailer,
  extra: Parameters<typeof configuredDigestSender>[2] = {},
): StartableWorker | null {
  const sender = configuredDigestSender(db, mailer, extra);
  if (!sender) return null;
  return {
    start() {
      const { mode, to } = digestSettings();
      console.log(`[digest] ${mode} digest to ${to}, at ${DIGEST_HOUR}:00 ${DIGEST_TIME_ZONE}${mode === 'weekly' ? ' on Mondays' : ''}`);
      sender.start();
    },
    stop: sender.stop,
  };
}
