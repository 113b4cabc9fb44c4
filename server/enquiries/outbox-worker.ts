import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { isPermanentSmtpFailure, type Mailer } from '@/server/enquiries/mailer';
import { notificationEmail } from '@/server/enquiries/notification-email';
import { findEnquiry } from '@/server/enquiries/store';

export const MAX_ATTEMPTS = 20;
export const LEASE_MS = 2 * 60_000;

/** 30 s, 1 min, 2 min … capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export type OutboxWorkerOptions = {
  db: Client;
  mailer: Mailer;
  from: string;
  to: string;
  pollMs: number;
  now?: () => number;
  owner?: string;
  backoff?: (attempts: number) => number;
  maxAttempts?: number;
  leaseMs?: number;
  log?: (line: string) => void;
};

type ClaimedJob = { id: number; enquiryId: number; attempts: number };

/**
 * Delivers the notification jobs of the outbox (enquiry_notifications). Each job is claimed with one
 * UPDATE … RETURNING that sets a lease, so several workers (or a restarted one) never send the same
 * job at the same time, and it is marked sent only by the worker still holding the lease.
 */
export function createOutboxWorker(options: OutboxWorkerOptions) {
  const { db, mailer } = options;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? randomUUID();
  const backoff = options.backoff ?? backoffMs;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const log = options.log ?? ((line: string) => console.log(line));

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  let again = false;

  async function claim(): Promise<ClaimedJob | null> {
    const current = now();
    const result = await db.execute({
      sql: `UPDATE enquiry_notifications
            SET lease_owner = ?, lease_until_ms = ?, attempts = attempts + 1
            WHERE id = (
              SELECT id FROM enquiry_notifications
              WHERE status = 'pending' AND next_attempt_ms <= ? AND (lease_until_ms IS NULL OR lease_until_ms < ?)
              ORDER BY next_attempt_ms, id LIMIT 1
            ) AND status = 'pending' AND (lease_until_ms IS NULL OR lease_until_ms < ?)
            RETURNING id, enquiry_id, attempts`,
      args: [owner, current + leaseMs, current, current, current],
    });
    const row = result.rows[0];
    return row ? { id: Number(row.id), enquiryId: Number(row.enquiry_id), attempts: Number(row.attempts) } : null;
  }

  async function deliver(job: ClaimedJob): Promise<void> {
    const enquiry = await findEnquiry(db, job.enquiryId);
    try {
      if (!enquiry) throw new Error(`enquiry ${job.enquiryId} is missing`);
      const message = notificationEmail(
        enquiry,
        { from: options.from, to: options.to },
      );
      const { messageId } = await mailer.send(message);
      const marked = await db.execute({
        sql: `UPDATE enquiry_notifications SET status = 'sent', sent_at = ?, message_id = ?, last_error = NULL,
                lease_owner = NULL, lease_until_ms = NULL
              WHERE id = ? AND lease_owner = ? AND status = 'pending'`,
        args: [new Date(now()).toISOString(), messageId, job.id, owner],
      });
      if (marked.rowsAffected !== 1) log(`[outbox] job ${job.id}: sent, but the lease had passed to another worker`);
      else log(`[outbox] job ${job.id} (enquiry ${job.enquiryId}) sent via ${mailer.describe}`);
    } catch (error) {
      const permanent = !enquiry || isPermanentSmtpFailure(error);
      const giveUp = permanent || job.attempts >= maxAttempts;
      const detail = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      await db.execute({
        sql: `UPDATE enquiry_notifications SET status = ?, next_attempt_ms = ?, last_error = ?, lease_owner = NULL, lease_until_ms = NULL
              WHERE id = ? AND lease_owner = ?`,
        args: [giveUp ? 'failed' : 'pending', now() + backoff(job.attempts), detail, job.id, owner],
      });
      log(`[outbox] job ${job.id} attempt ${job.attempts} failed${giveUp ? ' permanently' : ', will retry'}: ${detail}`);
    }
  }

  /** Delivers every job that is due now; resolves to how many were attempted. */
  async function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let attempted = 0;
      do {
        again = false;
        for (let job = await claim(); job; job = await claim()) {
          attempted += 1;
          await deliver(job);
        }
      } while (again);
      return attempted;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => log(`[outbox] poll failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => schedule(options.pollMs));
    }, delay);
    timer.unref?.();
  }

  return {
    owner,
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    /** Ask for a delivery round now (after an enquiry was stored). */
    wake() {
      if (!stopped) schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;

/** Requeues permanently failed jobs (`npm run enquiries -- --retry-failed`); returns how many. */
export async function retryFailedJobs(db: Client, now: number = Date.now()): Promise<number> {
  const result = await db.execute({
    sql: `UPDATE enquiry_notifications SET status = 'pending', attempts = 0, next_attempt_ms = ?, lease_owner = NULL, lease_until_ms = NULL
          WHERE status = 'failed'`,
    args: [now],
  });
  return result.rowsAffected;
}
