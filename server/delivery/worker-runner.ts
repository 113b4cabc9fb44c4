import 'server-only';
import type { Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import { writeBatch } from '@/server/base/db';
import { createLeaseQueue, createPollingLoop, type Claim, type LeaseTable, type RetrySchedule } from '@/server/delivery/lease-queue';

export { attemptsSchedule, type Claim, type RetrySchedule } from '@/server/delivery/lease-queue';

/**
 * The one runner of the site's background workers (the e-mails, the CRM's webhooks, the digest). A
 * worker is declared: its table (with the lease columns), its retry schedule, its handler (what one
 * job is) and how it logs. The runner claims due jobs with a lease, hands each to the handler, records
 * what became of it while it still holds the lease (done, tried again later, given up, or given back),
 * and polls, wakes and stops (decision 0054).
 */

type Row<T extends LeaseTable> = T['$inferSelect'];
type Changes<T extends LeaseTable> = SQLiteUpdateSetSource<T>;

/** What became of one attempt at one job, as its handler tells it; each line is logged as `[name] line`. */
export type JobOutcome<T extends LeaseTable, V = undefined> =
  /**
   * Done: recorded with `changes` if this worker still holds it, trying again while the database refuses
   * the record (`changes` given as a function are made again for each try). `line` once recorded;
   * `leasePassed` when another worker held it by then; `notRecorded` while the record is refused (and
   * again on giving up).
   */
  | {
      kind: 'done';
      changes: Changes<T> | (() => Changes<T>);
      value?: V;
      line: string;
      leasePassed?: string;
      notRecorded?: (error: unknown, givingUp: boolean) => string;
    }
  /** Failed: pending until its schedule's next attempt, or failed for good (permanent, or past its schedule). */
  | {
      kind: 'failed';
      error: string;
      permanent?: boolean;
      retryAfterMs?: number;
      /** When it failed (default now). */
      at?: number;
      line: (failedForGood: boolean, delayMs: number) => string;
    }
  /** Given back untried: its attempt does not count, and `changes` say when it is due again. `afterLogged` runs once it is logged. */
  | { kind: 'given-back'; changes: Changes<T>; line: string; afterLogged?: () => void };

/** A job the runner handed to its handler, and what became of it. */
export type JobReport<T extends LeaseTable, V = undefined> = {
  job: Row<T>;
  state: 'done' | 'will-retry' | 'failed' | 'given-back';
  error?: string;
  value?: V;
};

export type WorkerDefinition<T extends LeaseTable, V = undefined> = {
  /** Its name in the logs: `[name] …`. */
  name: string;
  db: Client;
  table: T;
  /** This worker's name in lease_owner. */
  owner: string;
  /** How long a claim holds its jobs; past it another worker may take them. */
  leaseMs: number;
  schedule: RetrySchedule<Row<T>>;
  /** The next jobs due, leased by `claim` with this worker's order, filter and batch size. */
  claimDue: (claim: (spec: Claim) => Promise<Row<T>[]>) => Promise<Row<T>[]>;
  /** The handler: one attempt at one job. */
  handle: (job: Row<T>) => Promise<JobOutcome<T, V>>;
  /**
   * A batch's jobs attempted at once and recorded in one write (each job's line logged as it is
   * attempted), `notRecorded` logged while the write is refused. Without it each job is recorded after it.
   */
  recordTogether?: { notRecorded: (count: number, error: unknown, givingUp: boolean) => string };
  /** A refused record is tried again until the worker stops (default), or only over RECORD_RETRY_DELAYS_MS. */
  recordUntilStopped?: boolean;
  /** Whether it may claim more now (default: while it runs). */
  mayClaim?: () => boolean;
  /** The pause after a batch of `size` jobs, if any. */
  pauseAfter?: (size: number) => number | undefined;
  /** Run at the start of each round, before the first claim. */
  beforeRound?: () => Promise<void>;
  /** How long the started worker waits between rounds when nothing wakes it. */
  pollMs: number;
  /** The line logged when a round fails. */
  roundFailed: (error: unknown) => string;
  log: (line: string) => void;
  now: () => number;
  /** Waits between attempts to record an outcome (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
};

const made = <C extends object>(changes: C | (() => C)): C => (typeof changes === 'function' ? changes() : changes);

type Queue<T extends LeaseTable> = ReturnType<typeof createLeaseQueue<T>>;
type Running<T extends LeaseTable, V> = {
  definition: WorkerDefinition<T, V>;
  queue: Queue<T>;
  say: (line: string) => void;
  keepRecording: () => boolean;
};

/** What a failed attempt leaves, and the statement that records it. */
function failure<T extends LeaseTable, V>(run: Running<T, V>, job: Row<T>, outcome: Extract<JobOutcome<T, V>, { kind: 'failed' }>) {
  const { failed, delayMs, changes } = run.queue.afterFailure(job, outcome, outcome.at ?? run.definition.now());
  return { failed, line: outcome.line(failed, delayMs), record: run.queue.release(job.id, changes) };
}

/** The statement that gives a job back untried: its attempt is not counted. */
function givenBack<T extends LeaseTable, V>(run: Running<T, V>, job: Row<T>, changes: Changes<T>) {
  const attempts = sql`${run.definition.table.attempts} - 1`;
  return run.queue.release(job.id, { attempts, ...changes } as Changes<T>);
}

/** Records one job's outcome after its attempt, then logs it. */
async function recordOne<T extends LeaseTable, V>(run: Running<T, V>, job: Row<T>): Promise<JobReport<T, V>> {
  const outcome = await run.definition.handle(job);
  if (outcome.kind === 'given-back') {
    await givenBack(run, job, outcome.changes);
    run.say(outcome.line);
    outcome.afterLogged?.();
    return { job, state: 'given-back' };
  }
  if (outcome.kind === 'failed') {
    const { failed, line, record } = failure(run, job, outcome);
    await record;
    run.say(line);
    return { job, state: failed ? 'failed' : 'will-retry', error: outcome.error };
  }
  const marked = await run.queue.recordWithRetry(() => run.queue.finish(job.id, made(outcome.changes)), {
    keepTrying: run.keepRecording,
    trouble: (error, givingUp) => {
      if (outcome.notRecorded) run.say(outcome.notRecorded(error, givingUp));
    },
  });
  if (marked?.rowsAffected === 1) run.say(outcome.line);
  else if (marked && outcome.leasePassed) run.say(outcome.leasePassed);
  return { job, state: 'done', value: outcome.value };
}

/** Attempts a batch's jobs at once, logging each, and records what became of them in one write. */
async function recordTogether<T extends LeaseTable, V>(
  run: Running<T, V>,
  batch: readonly Row<T>[],
  notRecorded: (count: number, error: unknown, givingUp: boolean) => string,
): Promise<JobReport<T, V>[]> {
  const attempted = await Promise.all(
    batch.map(async (job) => {
      const outcome = await run.definition.handle(job);
      if (outcome.kind === 'done') {
        run.say(outcome.line);
        const report: JobReport<T, V> = { job, state: 'done', value: outcome.value };
        return { report, record: run.queue.finish(job.id, made(outcome.changes)) };
      }
      if (outcome.kind === 'given-back') {
        run.say(outcome.line);
        return { report: { job, state: 'given-back' } as JobReport<T, V>, record: givenBack(run, job, outcome.changes) };
      }
      const { failed, line, record } = failure(run, job, outcome);
      run.say(line);
      return { report: { job, state: failed ? 'failed' : 'will-retry', error: outcome.error } as JobReport<T, V>, record };
    }),
  );
  await run.queue.recordWithRetry(
    () =>
      writeBatch(
        run.definition.db,
        attempted.map((each) => each.record),
      ),
    { keepTrying: run.keepRecording, trouble: (error, givingUp) => run.say(notRecorded(batch.length, error, givingUp)) },
  );
  return attempted.map((each) => each.report);
}

/**
 * A declared worker, ready to run: `runOnce` claims and handles every job due now (resolving to what
 * became of each); `start` runs rounds until stopped, each after `pollMs` or at once when woken; `stop`
 * stops claiming and resolves once the job under way is finished and recorded. `claim` and `runJob` let
 * a command handle one chosen job.
 */
export function createWorker<T extends LeaseTable, V = undefined, R = JobReport<T, V>[]>(
  definition: WorkerDefinition<T, V> & {
    /** What a round resolves to, from what became of each job it handled (default: those reports). */
    summarize?: (reports: JobReport<T, V>[]) => R;
  },
) {
  const { db, table, owner, leaseMs, schedule, now, sleep } = definition;
  const queue = createLeaseQueue({ db, table, owner, leaseMs, schedule, now, sleep });
  const say = (line: string) => definition.log(`[${definition.name}] ${line}`);
  const loopSettings = { round, pollMs: definition.pollMs, onError: (error: unknown) => say(definition.roundFailed(error)) };
  const loop = createPollingLoop(loopSettings);
  const keepRecording = definition.recordUntilStopped === false ? () => false : () => !loop.isStopped();
  const run: Running<T, V> = { definition, queue, say, keepRecording };

  async function round(): Promise<R> {
    await definition.beforeRound?.();
    const reports: JobReport<T, V>[] = [];
    while (!loop.isStopped() && (definition.mayClaim?.() ?? true)) {
      const batch = await definition.claimDue(queue.claim);
      if (batch.length === 0) break;
      const together = definition.recordTogether;
      if (together) reports.push(...(await recordTogether(run, batch, together.notRecorded)));
      else for (const job of batch) reports.push(await recordOne(run, job));
      const pauseMs = definition.pauseAfter?.(batch.length);
      if (pauseMs !== undefined) await loop.pause(pauseMs);
    }
    return definition.summarize ? definition.summarize(reports) : (reports as R);
  }

  return {
    owner,
    claim: queue.claim,
    runJob: (job: Row<T>) => recordOne(run, job),
    runOnce: loop.runOnce,
    /** Runs rounds until stopped; `every` changes the wait between rounds and where a failed round is logged. */
    start(every: { pollMs?: number; log?: (line: string) => void } = {}) {
      if (every.pollMs !== undefined) loopSettings.pollMs = every.pollMs;
      const log = every.log;
      if (log) loopSettings.onError = (error) => log(`[${definition.name}] ${definition.roundFailed(error)}`);
      loop.start();
    },
    /** Ask for a round now. */
    wake: loop.wake,
    stop: loop.stop,
    isStopped: loop.isStopped,
  };
}

/** What the server starts and stops: each worker in the map. */
export type StartableWorker = { start: () => void; stop: () => Promise<void> };

/**
 * The server's workers, registered in one map by name (a worker that is not configured is null): starts
 * each, and `stop` stops them one after another in the map's order, each once its job under way is recorded.
 */
export function startWorkers(workers: Readonly<Record<string, StartableWorker | null>>) {
  const running = Object.values(workers).filter((worker): worker is StartableWorker => worker !== null);
  for (const worker of running) worker.start();
  return {
    async stop() {
      for (const worker of running) await worker.stop();
    },
  };
}
