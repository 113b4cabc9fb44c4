import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, desc, eq, gte, lt, lte, max, notInArray, or } from 'drizzle-orm';
import { claimsDrying } from '@/server/reports/claims-drying';
import { undeliveredEvents, webhookFigures, webhooksDeliveredBetween } from '@/server/crm/webhook-status';
import { orm } from '@/server/base/db';
import { enquiries, enquiryNotifications as jobs, errorLogs } from '@/server/base/db-schema';
import type { DigestCrm, DigestFacts } from '@/server/reports/digest/sections';
import { DIGEST_TIME_ZONE, type DigestMode } from '@/server/reports/digest/period';
import { checkEnquiryHealth, STALE_PENDING_MS } from '@/server/reports/health';
import { readEnquiryStatsBetween } from '@/server/reports/stats';

export type DigestWindow = {
  mode: DigestMode;
  covers: { fromMs: number; toMs: number };
  partial: boolean;
  previous: { fromMs: number; toMs: number };
};

export type GatherOptions = {
  now: number;
  timeZone?: string;
  /** What the health check is given besides the time: the photo storage's budget, the outbox worker's pause (in the server). */
  health?: Omit<NonNullable<Parameters<typeof checkEnquiryHealth>[1]>, 'now'>;
};

const reference = (row: { id: number; reference: string | null }) => row.reference ?? `#${row.id}`;

/** Reads from the store what a digest for `window` says (composeDigest turns it into the e-mail). */
export async function gatherDigestFacts(db: Client, window: DigestWindow, options: GatherOptions): Promise<DigestFacts> {
  const q = orm(db);
  const { fromMs, toMs } = window.covers;
  const inCovers = and(gte(enquiries.receivedMs, fromMs), lt(enquiries.receivedMs, toMs));

  // Mail to the company (not the visitors' acknowledgements) that failed, or waits longer than it should.
  const undelivered = await q
    .select({
      id: enquiries.id,
      reference: enquiries.reference,
      status: jobs.status,
      attempts: jobs.attempts,
      receivedMs: enquiries.receivedMs,
    })
    .from(jobs)
    .innerJoin(enquiries, eq(enquiries.id, jobs.enquiryId))
    .where(
      and(
        notInArray(jobs.kind, ['acknowledgement', 'stage']),
        or(eq(jobs.status, 'failed'), and(eq(jobs.status, 'pending'), lte(enquiries.receivedMs, options.now - STALE_PENDING_MS))),
      ),
    )
    .orderBy(enquiries.receivedMs, jobs.id);

  const photosRefused = await q
    .select({ id: enquiries.id, reference: enquiries.reference, photos: enquiries.photosDropped, receivedMs: enquiries.receivedMs })
    .from(enquiries)
    .where(and(inCovers, eq(enquiries.photosDroppedReason, 'storage-full')))
    .orderBy(enquiries.receivedMs);

  const health = await checkEnquiryHealth(async () => db, { ...options.health, now: options.now, countClaims: true });

  const stats = await readEnquiryStatsBetween(db, fromMs, toMs);
  const verdicts = await q
    .select({ disposition: enquiries.disposition, verification: enquiries.verification, count: count() })
    .from(enquiries)
    .where(inCovers)
    .groupBy(enquiries.disposition, enquiries.verification);
  const tally = (test: (row: (typeof verdicts)[number]) => boolean) => verdicts.filter(test).reduce((sum, row) => sum + row.count, 0);

  const [previous] = await q
    .select({ count: count() })
    .from(enquiries)
    .where(
      and(
        eq(enquiries.disposition, 'accepted'),
        gte(enquiries.receivedMs, window.previous.fromMs),
        lt(enquiries.receivedMs, window.previous.toMs),
      ),
    );
  const [last] = await q
    .select({ receivedMs: max(enquiries.receivedMs) })
    .from(enquiries)
    .where(and(eq(enquiries.disposition, 'accepted'), lt(enquiries.receivedMs, toMs)));

  const entries = await q
    .select({ category: errorLogs.category, count: count() })
    .from(errorLogs)
    .where(and(gte(errorLogs.receivedAt, new Date(fromMs).toISOString()), lt(errorLogs.receivedAt, new Date(toMs).toISOString())))
    .groupBy(errorLogs.category)
    .orderBy(desc(count()), errorLogs.category);

  return {
    mode: window.mode,
    timeZone: options.timeZone ?? DIGEST_TIME_ZONE,
    covers: window.covers,
    partial: window.partial,
    previous: { ...window.previous, count: previous?.count ?? 0 },
    undelivered: undelivered.map((row) => ({
      reference: reference(row),
      status: row.status === 'failed' ? 'failed' : 'pending',
      attempts: row.attempts,
      receivedMs: row.receivedMs,
    })),
    photosRefused: photosRefused.map((row) => ({ reference: reference(row), photos: row.photos, receivedMs: row.receivedMs })),
    healthProblems: health.problems,
    enquiries: {
      ...stats,
      unverified: tally((row) => row.disposition === 'accepted' && row.verification === 'unverified'),
      spam: tally((row) => row.disposition === 'spam'),
      suspect: tally((row) => row.disposition === 'suspect'),
    },
    lastEnquiryMs: last?.receivedMs ?? null,
    photoStorage: health.photoStorage,
    claims: health.claims,
    drying: await claimsDrying(db, options.now),
    errorLog: entries.map((entry) => ({ category: entry.category, count: entry.count })),
    crm: options.health?.webhooks ? await crmFacts(db, window.covers, options.now) : null,
  };
}

/** The CRM's webhooks for a digest: delivered in `covers`; waiting and failed for good as they stand now. */
async function crmFacts(db: Client, covers: DigestWindow['covers'], now: number): Promise<DigestCrm> {
  const figures = await webhookFigures(db, now);
  const failed = (await undeliveredEvents(db)).filter((event) => event.status === 'failed');
  return {
    delivered: await webhooksDeliveredBetween(db, covers.fromMs, covers.toMs),
    waiting: figures.pending,
    failed: failed.map(({ reference, type, attempts }) => ({ reference, type, attempts })),
    oldestWaitingMs: figures.oldestUndeliveredMs,
  };
}
