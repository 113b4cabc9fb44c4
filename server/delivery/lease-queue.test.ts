import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { like } from 'drizzle-orm';
import { openDatabase, orm } from '@/server/base/db';
import { digests } from '@/server/base/db-schema';
import { attemptsSchedule, createLeaseQueue, createPollingLoop, RECORD_RETRY_DELAYS_MS } from '@/server/delivery/lease-queue';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { failingToRecordSends } from '@/tests/support/refusing-database';

// The digests table stands for any queue's table: it has the lease columns and nothing it depends on.
const LEASE_MS = 60_000;
let db: Client;
let url: string;
let cleanup: () => void;
let clock: number;
const closers: (() => void)[] = [];

beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
  clock = Date.parse('2026-11-26T09:00:00Z');
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
  cleanup();
});

async function addJobs(count: number, nextAttemptMs = clock) {
  const first = Number((await db.execute('SELECT count(*) AS n FROM digests')).rows[0]?.n);
  for (let i = first; i < first + count; i += 1)
    await orm(db)
      .insert(digests)
      .values({
        periodKey: `daily:job-${i}`,
        mode: 'daily',
        periodStartMs: i,
        periodEndMs: i,
        coversFromMs: i,
        coversToMs: i,
        trigger: 'schedule',
        recipient: 'owner@homecare.test',
        status: 'pending',
        nextAttemptMs,
      });
}

function queue(owner: string, client: Client = db, sleep?: (ms: number) => Promise<void>) {
  return createLeaseQueue({
    db: client,
    table: digests,
    owner,
    leaseMs: LEASE_MS,
    schedule: attemptsSchedule(3, 1000, 4000),
    now: () => clock,
    sleep,
  });
}

const rows = async () =>
  (await db.execute('SELECT id, status, attempts, lease_owner, next_attempt_ms, last_error, sent_at FROM digests ORDER BY id')).rows;

describe('claiming', () => {
  it('two workers on their own connections, claiming at once, never hold the same job', async () => {
    await addJobs(40);
    const second = await openDatabase(url);
    closers.push(() => second.close());
    const workers = [queue('a'), queue('b', second)];
    const claimed: Record<string, number[]> = { a: [], b: [] };
    await Promise.all(
      workers.map(async (worker) => {
        // Bounded: a queue that handed out leased jobs again would never run dry.
        for (let round = 0; round < 40; round += 1) {
          const batch = await worker.claim({ limit: 3, orderBy: [digests.id] });
          if (batch.length === 0) break;
          claimed[worker.owner]!.push(...batch.map((job) => job.id));
        }
      }),
    );
    const all = [...claimed.a!, ...claimed.b!];
    expect(all).toHaveLength(40);
    expect(new Set(all).size).toBe(40);
    expect((await rows()).every((row) => row.attempts === 1)).toBe(true);
  });

  it('takes only due jobs that match, in the order asked, up to the limit', async () => {
    await addJobs(3);
    await addJobs(1, clock + 1000);
    await db.execute("UPDATE digests SET period_key = 'weekly:other' WHERE id = 2");
    const [first, ...rest] = await queue('a').claim({ limit: 5, orderBy: [digests.periodStartMs] });
    expect([first!.id, ...rest.map((job) => job.id)]).toEqual([1, 2, 3]);
    await db.execute('UPDATE digests SET lease_owner = NULL, lease_until_ms = NULL, attempts = 0');
    const daily = await queue('a').claim({ limit: 5, orderBy: [digests.id], where: like(digests.periodKey, 'daily:%') });
    expect(daily.map((job) => job.id)).toEqual([1, 3]);
    await db.execute('UPDATE digests SET lease_owner = NULL, lease_until_ms = NULL, attempts = 0');
    expect((await queue('a').claim({ limit: 1, orderBy: [digests.id] })).map((job) => job.id)).toEqual([1]);
  });

  it('an expired lease is claimed again; the worker that lost it can no longer record the job', async () => {
    await addJobs(1);
    const first = queue('first');
    const [job] = await first.claim({ orderBy: [digests.id] });
    expect(job).toMatchObject({ leaseOwner: 'first', leaseUntilMs: clock + LEASE_MS, attempts: 1 });
    const second = queue('second');
    expect(await second.claim({ orderBy: [digests.id] })).toEqual([]);
    clock += LEASE_MS + 1;
    expect(await second.claim({ orderBy: [digests.id] })).toMatchObject([{ id: job!.id, leaseOwner: 'second', attempts: 2 }]);
    expect((await first.finish(job!.id, { status: 'sent', sentAt: 'late' })).rowsAffected).toBe(0);
    expect((await second.finish(job!.id, { status: 'sent', sentAt: 'now' })).rowsAffected).toBe(1);
    expect(await rows()).toMatchObject([{ status: 'sent', lease_owner: null, sent_at: 'now' }]);
  });

  it('a failure is retried on its schedule, then given up', async () => {
    await addJobs(1);
    const worker = queue('a');
    for (const attempt of [1, 2, 3]) {
      const [job] = await worker.claim({ orderBy: [digests.id] });
      expect(job?.attempts).toBe(attempt);
      const outcome = worker.afterFailure(job!, { error: `refused ${attempt}` });
      await worker.release(job!.id, outcome.changes);
      expect(outcome).toMatchObject({ failed: attempt === 3, delayMs: 1000 * 2 ** (attempt - 1) });
      expect(await worker.claim({ orderBy: [digests.id] })).toEqual([]);
      clock += outcome.delayMs;
    }
    expect(await rows()).toMatchObject([{ status: 'failed', attempts: 3, last_error: 'refused 3', lease_owner: null }]);
    const [again] = await rows();
    expect(again!.next_attempt_ms).toBe(clock);
  });
});

describe('recording with retry', () => {
  const quickly = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

  it('survives a busy database: the outcome is recorded once it takes writes again', async () => {
    await addJobs(1);
    const { client, failing } = failingToRecordSends(db);
    const worker = queue('a', client, quickly);
    const [job] = await worker.claim({ orderBy: [digests.id] });
    const troubles: boolean[] = [];
    const recorded = worker.recordWithRetry(() => worker.finish(job!.id, { status: 'sent', sentAt: 'accepted' }), {
      keepTrying: () => true,
      trouble: (_error, givingUp) => troubles.push(givingUp),
    });
    await expect.poll(() => failing.refused).toBeGreaterThan(RECORD_RETRY_DELAYS_MS.length + 2);
    failing.on = false;
    expect((await recorded)?.rowsAffected).toBe(1);
    expect(troubles).toEqual([false]);
    expect(await rows()).toMatchObject([{ status: 'sent', sent_at: 'accepted', lease_owner: null }]);
  });

  it('gives up after its delays when it may not keep trying: the job keeps its lease, to be claimed again after it', async () => {
    await addJobs(1);
    const { client, failing } = failingToRecordSends(db);
    const waits: number[] = [];
    const worker = queue('a', client, async (ms) => void waits.push(ms));
    const [job] = await worker.claim({ orderBy: [digests.id] });
    const troubles: boolean[] = [];
    const recorded = await worker.recordWithRetry(() => worker.finish(job!.id, { status: 'sent', sentAt: 'accepted' }), {
      keepTrying: () => false,
      trouble: (_error, givingUp) => troubles.push(givingUp),
    });
    expect(recorded).toBeUndefined();
    expect(waits).toEqual([...RECORD_RETRY_DELAYS_MS]);
    expect(failing.refused).toBe(RECORD_RETRY_DELAYS_MS.length + 1);
    expect(troubles).toEqual([true]);
    expect(await rows()).toMatchObject([{ status: 'pending', lease_owner: 'a' }]);
    clock += LEASE_MS + 1;
    expect(await queue('b').claim({ orderBy: [digests.id] })).toHaveLength(1);
  });
});

describe('the polling loop', () => {
  it('runs a round at once, another when woken, and stop() cuts its sleep short', async () => {
    let rounds = 0;
    const loop = createPollingLoop({ round: async () => (rounds += 1), pollMs: 3_600_000, onError: () => undefined });
    loop.start();
    await expect.poll(() => rounds).toBe(1);
    loop.wake();
    await expect.poll(() => rounds).toBe(2);
    const started = Date.now();
    await loop.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(loop.isStopped()).toBe(true);
    expect(rounds).toBe(2);
  });

  it('a pause between batches is cut short by stop(), which waits for the round to finish', async () => {
    let finished = false;
    let paused: () => void = () => undefined;
    const pausing = new Promise<void>((resolve) => (paused = resolve));
    const loop = createPollingLoop({
      round: async () => {
        const pause = loop.pause(3_600_000);
        paused();
        await pause;
        finished = true;
      },
      pollMs: 3_600_000,
      onError: () => undefined,
    });
    loop.start();
    await pausing;
    const started = Date.now();
    await loop.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(finished).toBe(true);
  });

  it('a round that throws is reported and the loop goes on', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const loop = createPollingLoop({
      round: async () => {
        rounds += 1;
        if (rounds === 1) throw new Error('database locked');
      },
      pollMs: 5,
      onError: (error) => errors.push(error),
    });
    loop.start();
    await expect.poll(() => rounds).toBeGreaterThanOrEqual(2);
    await loop.stop();
    expect(errors.map(String)).toEqual(['Error: database locked']);
  });

  it('runOnce joins the round under way rather than starting a second', async () => {
    let release: () => void = () => undefined;
    let rounds = 0;
    const loop = createPollingLoop({
      round: () => ((rounds += 1), new Promise<number>((resolve) => (release = () => resolve(rounds)))),
      pollMs: 60_000,
      onError: () => undefined,
    });
    const first = loop.runOnce();
    expect(loop.runOnce()).toBe(first);
    release();
    expect(await first).toBe(1);
    expect(rounds).toBe(1);
  });
});
