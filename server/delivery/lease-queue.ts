import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import { orm } from '@/server/base/db';
import { doublingDelay } from '@/server/base/doubling-delay';

/**
 * The lease under every worker of the runner (server/delivery/worker-runner.ts), how the site delivers
 * what is pending for someone (the company's and the senders' e-mails, the CRM's events, the digest): a job is a row of a table with the lease columns below. A worker claims due jobs
 * with one `UPDATE … RETURNING` that leases them (owner and expiry), does the work, and records the
 * outcome only while it still holds the lease; a worker that dies leaves the lease to expire, and the
 * job is claimed again. Each kind keeps its own table; what differs is its handler (what a job does)
 * and its schedule (when a failed job is tried again, when it is given up).
 */

/** What a table needs to be a queue: its id, status ('pending' until done; 'failed' once given up), attempts, next attempt and lease. */
export type LeaseTable = SQLiteTable &
  Record<'id' | 'status' | 'attempts' | 'nextAttemptMs' | 'leaseOwner' | 'leaseUntilMs' | 'lastError', SQLiteColumn>;

/** Waits between attempts to record an outcome (the database may be briefly locked): 50 ms … then every 3 s. */
export const RECORD_RETRY_DELAYS_MS: readonly number[] = [50, 200, 1000, 3000];

/** When a failed job is tried again, and whether it is given up instead. */
export type RetrySchedule<Row> = (job: Row, failedAt: number, retryAfterMs?: number) => { delayMs: number; giveUp: boolean };

/** Tried again after `firstMs`, doubling up to `maxMs`; given up after `maxAttempts`. */
export function attemptsSchedule(maxAttempts: number, firstMs: number, maxMs: number): RetrySchedule<{ attempts: number }> {
  const backoff = doublingDelay(firstMs, maxMs);
  return (job) => ({ delayMs: backoff(job.attempts), giveUp: job.attempts >= maxAttempts });
}

export type Claim = {
  /** How many jobs at most (default 1). */
  limit?: number;
  /** Which jobs, besides being claimable. */
  where?: SQL;
  orderBy: readonly (SQLiteColumn | SQL)[];
  /** The statuses a job may be claimed in (default pending). */
  statuses?: readonly string[];
  /** Only jobs whose next attempt has come (default true). */
  due?: boolean;
  /** Set on each claimed job with its lease. */
  set?: Record<string, unknown>;
};

type Failure = { error: string; permanent?: boolean; retryAfterMs?: number };

type LeaseQueueOptions<T extends LeaseTable> = {
  db: Client;
  table: T;
  /** This worker's name in lease_owner. */
  owner: string;
  /** How long a claim holds its jobs; past it another worker may take them. */
  leaseMs: number;
  schedule: RetrySchedule<T['$inferSelect']>;
  now: () => number;
  /** Waits between attempts to record an outcome (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
};

export function createLeaseQueue<T extends LeaseTable>(options: LeaseQueueOptions<T>) {
  const { db, table: t, owner, now } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  type Row = T['$inferSelect'];
  type Changes = SQLiteUpdateSetSource<T>;
  const mine = (id: number) => and(eq(t.id, id), eq(t.leaseOwner, owner));
  const unleased = { leaseOwner: null, leaseUntilMs: null };

  /** Leases up to `limit` due jobs in one statement: each is re-checked as it is leased, so two workers never take the same one. */
  async function claim(spec: Claim): Promise<Row[]> {
    const at = now();
    const claimable = and(inArray(t.status, [...(spec.statuses ?? ['pending'])]), or(isNull(t.leaseUntilMs), lt(t.leaseUntilMs, at)));
    const chosen = orm(db)
      .select({ id: t.id })
      .from(t)
      .where(and(claimable, spec.due === false ? undefined : lte(t.nextAttemptMs, at), spec.where))
      .orderBy(...spec.orderBy)
      .limit(spec.limit ?? 1);
    const lease = { ...spec.set, leaseOwner: owner, leaseUntilMs: at + options.leaseMs, attempts: sql`${t.attempts} + 1` };
    return (await orm(db)
      .update(t)
      .set(lease as Changes)
      .where(and(inArray(t.id, chosen), claimable))
      .returning()) as Row[];
  }

  /** The statement that gives a job back with `changes`, if this worker still holds it (built: run when awaited or batched). */
  const release = (id: number, changes: Changes, ...also: SQL[]) =>
    orm(db)
      .update(t)
      .set({ ...changes, ...unleased } as Changes)
      .where(and(mine(id), ...also));

  /** The statement that records a job done (`changes` say how), if this worker still holds it and it is still pending. */
  const finish = (id: number, changes: Changes) => release(id, changes, eq(t.status, 'pending'));

  /** What a failed attempt leaves: pending until its next attempt, or failed for good (permanent, or past its schedule). */
  function afterFailure(job: Row, failure: Failure, at: number = now()) {
    const { delayMs, giveUp } = options.schedule(job, at, failure.retryAfterMs);
    const failed = failure.permanent === true || giveUp;
    const changes = { status: failed ? 'failed' : 'pending', nextAttemptMs: at + delayMs, lastError: failure.error } as Changes;
    return { failed, delayMs, changes };
  }

  /**
   * Runs `write` (the record of work already done: a message the relay accepted, events the CRM took),
   * trying again while the database refuses it. Once RECORD_RETRY_DELAYS_MS are spent it goes on every
   * 3 s while `keepTrying()`, else gives up: after its lease the job is done again, as after a crash
   * between the work and the record. `trouble` is told once the delays are spent, and again on giving up.
   */
  async function recordWithRetry<R>(
    write: () => Promise<R>,
    handling: { keepTrying: () => boolean; trouble: (error: unknown, givingUp: boolean) => void },
  ): Promise<R | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        const spent = attempt >= RECORD_RETRY_DELAYS_MS.length;
        const giveUp = spent && !handling.keepTrying();
        if (giveUp || attempt === RECORD_RETRY_DELAYS_MS.length) handling.trouble(error, giveUp);
        if (giveUp) return undefined;
        await sleep(RECORD_RETRY_DELAYS_MS[attempt] ?? 3000);
      }
    }
  }

  return { owner, claim, release, finish, afterFailure, recordWithRetry };
}

/**
 * Runs `round` (claim, do, record until nothing is due) now and again: `pollMs` after each, or at once
 * when woken. stop() cuts a wait short and resolves once the round under way is finished and recorded;
 * a stopped loop stays stopped. Its timers do not keep the process alive.
 */
export function createPollingLoop<R>(options: { round: () => Promise<R>; pollMs: number; onError: (error: unknown) => void }) {
  let stopped = false;
  let round: Promise<R> | undefined;
  let loop: Promise<void> | undefined;
  let woken = false;
  /** The waits under way, each ended early by wake() (the loop's) or stop() (every one). */
  const waits = new Set<{ end: () => void; wakes: boolean }>();

  /** Waits `ms`, or less when the loop stops (or, for the loop's wait, when it is woken). */
  function wait(ms: number, wakes: boolean): Promise<void> {
    if (stopped || (wakes && woken)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const entry = { end: () => (clearTimeout(timer), waits.delete(entry), resolve()), wakes };
      const timer = setTimeout(entry.end, ms);
      timer.unref?.();
      waits.add(entry);
    });
  }

  /** One round (the one under way, if any). */
  function runOnce(): Promise<R> {
    round ??= options.round().finally(() => (round = undefined));
    return round;
  }

  return {
    runOnce,
    /** Waits `ms` between the batches of a round; cut short when the loop stops. */
    pause: (ms: number) => wait(ms, false),
    isStopped: () => stopped,
    start() {
      loop ??= (async () => {
        while (!stopped) {
          // Cleared before the round, so a wake() during it starts the next one at once.
          woken = false;
          await runOnce().catch(options.onError);
          await wait(options.pollMs, true);
        }
      })();
    },
    wake() {
      woken = true;
      for (const each of waits) if (each.wakes) each.end();
    },
    async stop() {
      stopped = true;
      for (const each of waits) each.end();
      await Promise.all([round?.catch(() => undefined), loop]);
    },
  };
}
