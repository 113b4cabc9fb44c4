import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, desc, eq, gte, inArray, lt, lte, max, or } from 'drizzle-orm';
import { claimsDrying } from '@/server/reports/claims-drying';
import { undeliveredEvents, webhookFigures, webhooksDeliveredBetween } from '@/server/crm/webhook-status';
import { orm } from '@/server/base/db';
import { enquiries, enquiryNotifications as jobs, errorLogs } from '@/server/base/db-schema';
import type { DigestCrm, DigestFacts } from '@/server/reports/digest/sections';
import { DIGEST_TIME_ZONE, type DigestMode } from '@/server/reports/digest/period';
import { checkEnquiryHealth, STALE_PENDING_MS } from '@/server/reports/health';
import { readEnquiryStatsBetween } from '@/server/reports/stats';
import { portfolioDigest } from '@/server/reports/digest/portfolio-facts';
import { surveyVisitCounts } from '@/server/claims/survey-booking';

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

  const undelivered = await undeliveredNotifications(q, options.now);
  const photosRefused = await photosRefusedIn(q, inCovers);
  const health = await checkEnquiryHealth(async () => db, { ...options.health, now: options.now, countClaims: true });
  const stats = await readEnquiryStatsBetween(db, fromMs, toMs);
  const apart = await enquiriesSetApart(q, inCovers);
  const previous = await acceptedBetween(q, window.previous);
  const last = await lastAcceptedBefore(q, toMs);
  const entries = await errorLogByCategory(q, fromMs, toMs);

  return {
    mode: window.mode,
    timeZone: options.timeZone ?? DIGEST_TIME_ZONE,
    covers: window.covers,
    partial: window.partial,
    previous: { ...window.previous, count: previous },
    undelivered,
    photosRefused,
    healthProblems: health.problems,
    enquiries: { ...stats, ...apart },
    lastEnquiryMs: last,
    photoStorage: health.photoStorage,
    claims: health.claims,
    drying: await claimsDrying(db, options.now),
    surveys: await surveyVisitCounts(db, fromMs, toMs),
    errorLog: entries,
    crm: options.health?.webhooks ? await crmFacts(db, window.covers, options.now) : null,
    portfolios: await portfolioDigest(db, window.covers, options.now),
  };
}

type Query = ReturnType<typeof orm>;
type Condition = ReturnType<typeof and>;

/** Mail to the company (not the visitors' acknowledgements) that failed, or waits longer than it should. */
async function undeliveredNotifications(q: Query, now: number): Promise<DigestFacts['undelivered']> {
  const rows = await q
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
        inArray(jobs.kind, ['notification', 'photos']),
        or(eq(jobs.status, 'failed'), and(eq(jobs.status, 'pending'), lte(enquiries.receivedMs, now - STALE_PENDING_MS))),
      ),
    )
    .orderBy(enquiries.receivedMs, jobs.id);
  return rows.map((row) => ({
    reference: reference(row),
    status: row.status === 'failed' ? 'failed' : 'pending',
    attempts: row.attempts,
    receivedMs: row.receivedMs,
  }));
}

/** The enquiries in `covers` whose photos were not kept because the storage was full. */
async function photosRefusedIn(q: Query, inCovers: Condition): Promise<DigestFacts['photosRefused']> {
  const rows = await q
    .select({ id: enquiries.id, reference: enquiries.reference, photos: enquiries.photosDropped, receivedMs: enquiries.receivedMs })
    .from(enquiries)
    .where(and(inCovers, eq(enquiries.photosDroppedReason, 'storage-full')))
    .orderBy(enquiries.receivedMs);
  return rows.map((row) => ({ reference: reference(row), photos: row.photos, receivedMs: row.receivedMs }));
}

/** The enquiries in `covers` the statistics leave out or qualify: accepted unverified, spam, suspect. */
async function enquiriesSetApart(q: Query, inCovers: Condition): Promise<{ unverified: number; spam: number; suspect: number }> {
  const verdicts = await q
    .select({ disposition: enquiries.disposition, verification: enquiries.verification, count: count() })
    .from(enquiries)
    .where(inCovers)
    .groupBy(enquiries.disposition, enquiries.verification);
  const tally = (test: (row: (typeof verdicts)[number]) => boolean) => verdicts.filter(test).reduce((sum, row) => sum + row.count, 0);
  return {
    unverified: tally((row) => row.disposition === 'accepted' && row.verification === 'unverified'),
    spam: tally((row) => row.disposition === 'spam'),
    suspect: tally((row) => row.disposition === 'suspect'),
  };
}

/** The accepted enquiries of the period before, to compare with. */
async function acceptedBetween(q: Query, period: DigestWindow['previous']): Promise<number> {
  const [previous] = await q
    .select({ count: count() })
    .from(enquiries)
    .where(and(eq(enquiries.disposition, 'accepted'), gte(enquiries.receivedMs, period.fromMs), lt(enquiries.receivedMs, period.toMs)));
  return previous?.count ?? 0;
}

/** When the last accepted enquiry before `toMs` was received, if any. */
async function lastAcceptedBefore(q: Query, toMs: number): Promise<number | null> {
  const [last] = await q
    .select({ receivedMs: max(enquiries.receivedMs) })
    .from(enquiries)
    .where(and(eq(enquiries.disposition, 'accepted'), lt(enquiries.receivedMs, toMs)));
  return last?.receivedMs ?? null;
}

/** The error log's entries between `fromMs` and `toMs`, by category, most first. */
async function errorLogByCategory(q: Query, fromMs: number, toMs: number): Promise<DigestFacts['errorLog']> {
  const entries = await q
    .select({ category: errorLogs.category, count: count() })
    .from(errorLogs)
    .where(and(gte(errorLogs.receivedAt, new Date(fromMs).toISOString()), lt(errorLogs.receivedAt, new Date(toMs).toISOString())))
    .groupBy(errorLogs.category)
    .orderBy(desc(count()), errorLogs.category);
  return entries.map((entry) => ({ category: entry.category, count: entry.count }));
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
