import 'server-only';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@libsql/client';
import { and, eq, sql } from 'drizzle-orm';
import { ENQUIRY_FIELDS, isUrgent } from '@/lib/contact-fields';
import { enquiryReference } from '@/lib/enquiry-reference';
import { ATTRIBUTION_FIELDS } from '@/lib/visit-attribution';
import { business } from '@/content/business';
import { dryingVisitForCrm } from '@/server/claims/drying/record';
import { appointmentChangeForCrm } from '@/server/claims/survey-booking';
import { findStageChange } from '@/server/claims/stage-change';
import { photoLinks } from '@/server/crm/photo-links';
import { webhookHeaders, webhookKey } from '@/server/crm/standard-webhooks';
import { orm } from '@/server/base/db';
import { createWorker, type JobOutcome, type RetrySchedule } from '@/server/delivery/worker-runner';
import { webhookEvents } from '@/server/base/db-schema';
import { findEnquiry } from '@/server/ledger/enquiry-store';
import { writePendingReceivedEvents } from '@/server/crm/outgoing-events';

/**
 * The company's CRM told of each enquiry by signed webhooks (Standard Webhooks, the scheme the site
 * accepts on /api/crm/events, under its own secret): `enquiry.received`, `enquiry.photos_added`,
 * `claim.updated`, `claim.drying_recorded` and `appointment.*`. Each event is a row of webhook_events written in the same batch as what it tells of
 * (an enquiry's `enquiry.received` by this worker, from the mark the intake leaves: writePendingReceivedEvents),
 * and delivered by its own worker (createWebhookWorker): the same `webhook-id` on every attempt, events
 * of one enquiry in order, retried for a day, and never in the way of the company's e-mails.
 */

/** The body's version: fields may be added within it; one removed or changed in meaning makes a new one. */
export const WEBHOOK_VERSION = 1;

export type WebhookTarget = { url: string; secret: string };

type EventRow = Pick<
  typeof webhookEvents.$inferSelect,
  'id' | 'enquiryId' | 'type' | 'eventId' | 'stageChangeId' | 'photosFrom' | 'dryingVisitId' | 'appointmentChangeId' | 'occurredAt'
>;

const orNull = (value: string | null | undefined) => (value ? value : null);

/**
 * The body of an event, built when it is sent (photo links are signed then): `{type, version,
 * timestamp, data}`. docs/enquiries.md documents each field. Null when what it tells of is gone.
 */
export async function webhookBody(db: Client, event: EventRow, siteUrl: string, now: number): Promise<string | null> {
  const enquiry = await findEnquiry(db, event.enquiryId);
  if (!enquiry) return null;
  const reference = enquiry.reference ?? enquiryReference(enquiry.id);
  let data: Record<string, unknown>;
  if (event.type === 'claim.updated') {
    const change = await findStageChange(db, event.stageChangeId);
    if (!change) return null;
    data = {
      reference,
      stage: change.stage,
      date: change.nextDate,
      waitingOn: change.waitingOn,
      note: change.note,
      customerTold: change.tellCustomer === 1,
      changedAt: change.changedAt,
    };
  } else if (event.type === 'claim.drying_recorded') {
    const visit = await dryingVisitForCrm(db, event.enquiryId, event.dryingVisitId);
    if (!visit) return null;
    data = { reference, ...visit };
  } else if (event.type.startsWith('appointment.')) {
    const change = await appointmentChangeForCrm(db, event.enquiryId, event.appointmentChangeId, business.openingHours);
    if (!change) return null;
    data = { reference, ...change };
  } else {
    // The photos first, then where the later batches begin: photos and their event are written in one
    // batch, so photos seen here whose event is not seen yet are this event's, never told twice.
    const from = event.type === 'enquiry.photos_added' ? (event.photosFrom ?? 0) : 0;
    const links = await photoLinks(db, siteUrl, event.enquiryId, { from, now });
    const until = (await laterBatchesFrom(db, event.enquiryId)).find((first) => first > from) ?? Number.POSITIVE_INFINITY;
    const photos = links.filter((photo) => photo.position < until);
    data =
      event.type === 'enquiry.photos_added'
        ? { reference, photos }
        : {
            reference,
            receivedAt: enquiry.receivedAt,
            fields: Object.fromEntries(
              ENQUIRY_FIELDS.map((field) => [field, orNull(enquiry[field as keyof typeof enquiry] as string | null)]),
            ),
            urgent: isUrgent(enquiry),
            verification: enquiry.verification,
            source: Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, orNull(enquiry[field])])),
            photos,
          };
  }
  return JSON.stringify({ type: event.type, version: WEBHOOK_VERSION, timestamp: event.occurredAt, data });
}

/** The first positions of the batches of photos told of in their own events (added later, or handed over by a re-send), in order. */
async function laterBatchesFrom(db: Client, enquiryId: number): Promise<number[]> {
  const rows = await orm(db)
    .select({ from: webhookEvents.photosFrom })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.enquiryId, enquiryId), eq(webhookEvents.type, 'enquiry.photos_added')));
  return rows.flatMap((row) => (row.from === null ? [] : [row.from])).sort((a, b) => a - b);
}

/** What became of one attempt: delivered, worth another try (after at least `retryAfterMs`), or refused for good. */
export type DeliveryOutcome =
  { kind: 'delivered'; status: number } | { kind: 'retry'; error: string; retryAfterMs?: number } | { kind: 'final'; error: string };

/** Each attempt's limit: the receiver answers within it or the attempt counts as a timeout. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The most of an answer's body read (it is not needed); the rest is dropped. */
const ANSWER_READ_BYTES = 4096;

function retryAfterMsOf(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Reads at most ANSWER_READ_BYTES of an answer and lets go of the rest. */
async function drain(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read < ANSWER_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * One attempt: the body POSTed to the operator's URL, signed, within ATTEMPT_TIMEOUT_MS, following no
 * redirect. 2xx: delivered. 408, 429, 5xx, a timeout or a connection error: try again (honouring
 * Retry-After). Anything else (another 4xx, a redirect): refused for good. Nothing of the secret is logged.
 */
export async function postWebhook(
  target: WebhookTarget,
  message: { id: string; body: string },
  now: number,
  fetchImpl: typeof fetch = fetch,
): Promise<DeliveryOutcome> {
  const headers = webhookHeaders(webhookKey(target.secret), { id: message.id, timestamp: Math.floor(now / 1000), body: message.body });
  let response: Response;
  try {
    response = await fetchImpl(target.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'homecare-web webhooks', ...headers },
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return {
      kind: 'retry',
      error: error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : cause,
    };
  }
  await drain(response).catch(() => undefined);
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 408 || status === 429 || status >= 500)
    return { kind: 'retry', error: `HTTP ${status}`, retryAfterMs: retryAfterMsOf(response.headers.get('retry-after'), now) };
  return { kind: 'final', error: status >= 300 && status < 400 ? `HTTP ${status} (a redirect, not followed)` : `HTTP ${status}` };
}

/** How long an event is tried for before it is failed for good. */
export const GIVE_UP_AFTER_MS = 25 * 60 * 60_000;
/** The longest a receiver's Retry-After is honoured for. */
const RETRY_AFTER_CAP_MS = 6 * 60 * 60_000;

/**
 * The wait before the next attempt, by how long the event has waited so far: short at first (a CRM back
 * from a restart within ten minutes has its events within about a minute), then longer, for a day.
 */
export function nextAttemptDelayMs(waitedMs: number, retryAfterMs?: number): number {
  const schedule = waitedMs < 60_000 ? 10_000 : waitedMs < 15 * 60_000 ? 60_000 : waitedMs < 2 * 60 * 60_000 ? 10 * 60_000 : 60 * 60_000;
  return Math.max(schedule, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS));
}

/** By how long the event has waited: given up once the next attempt would fall past GIVE_UP_AFTER_MS. */
const webhookSchedule: RetrySchedule<typeof webhookEvents.$inferSelect> = (event, failedAt, retryAfterMs) => {
  const waited = failedAt - event.createdMs;
  return { delayMs: nextAttemptDelayMs(waited, retryAfterMs), giveUp: waited + nextAttemptDelayMs(waited) > GIVE_UP_AFTER_MS };
};

const LEASE_MS = 2 * 60_000;
/** Events claimed, sent and recorded together. */
const CLAIM_BATCH = 16;
const BATCH_PAUSE_MS = 250;
/** The pause after a full batch while the server is busy (serverBusy): at most 8 events a second then. */
const BUSY_PAUSE_MS = 2000;
/** The share of the time the event loop was busy past which the server counts as busy. */
const BUSY_UTILIZATION = 0.5;

/**
 * Whether the server was busy since the last call: its event loop running (JavaScript, or waiting on
 * the database's disk) more than BUSY_UTILIZATION of the time. Visitors sending enquiries faster than
 * it answers them at ease keep it near 1; the worker draining a backlog alone, near 0.1.
 */
export function eventLoopBusy(): () => boolean {
  let since = performance.eventLoopUtilization();
  return () => {
    const busy = performance.eventLoopUtilization(since).utilization > BUSY_UTILIZATION;
    since = performance.eventLoopUtilization();
    return busy;
  };
}

export type WebhookWorkerOptions = {
  db: Client;
  target: WebhookTarget;
  siteUrl: string;
  pollMs: number;
  log?: (line: string) => void;
  now?: () => number;
  fetch?: typeof fetch;
  /** The pause after a full batch (default 250 ms). */
  batchPauseMs?: number;
  /** The pause after a full batch while the server is busy (default 2 s). */
  busyPauseMs?: number;
  /** Whether the server has been busy since it was last asked (default: eventLoopBusy). */
  serverBusy?: () => boolean;
};

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What delivering one event means: its body built now, posted signed to the CRM, and what became of it. */
function webhookHandler(options: WebhookWorkerOptions, now: () => number) {
  const { db, target, siteUrl } = options;
  return async function deliverEvent(event: typeof webhookEvents.$inferSelect): Promise<JobOutcome<typeof webhookEvents>> {
    const started = now();
    const body = await webhookBody(db, event, siteUrl, started);
    const outcome: DeliveryOutcome = body
      ? await postWebhook(target, { id: event.eventId, body }, started, options.fetch)
      : { kind: 'final', error: 'what it told of is gone (erased or expired)' };
    const finished = now();
    const named = `${event.type} ${event.eventId}`;
    if (outcome.kind === 'delivered')
      return {
        kind: 'done',
        changes: { status: 'delivered', deliveredAt: new Date(finished).toISOString(), lastError: null },
        line: `${named} delivered (HTTP ${outcome.status}, attempt ${event.attempts})`,
      };
    return {
      kind: 'failed',
      error: outcome.error.slice(0, 500),
      permanent: outcome.kind === 'final',
      retryAfterMs: outcome.kind === 'retry' ? outcome.retryAfterMs : undefined,
      at: finished,
      line: (failed, delayMs) =>
        failed
          ? `${named} failed for good after ${event.attempts} attempts: ${outcome.error}`
          : `${named} attempt ${event.attempts} failed (${outcome.error}); next in ${Math.round(delayMs / 1000)} s`,
    };
  };
}

/**
 * Delivers the CRM's events: each round claims the next due events with a lease (the oldest pending one
 * of each enquiry only, so an enquiry's events arrive in order), posts them, records them, and claims the
 * next until none is due; the started worker then sleeps `pollMs` (cut short when it is stopped).
 *
 * A batch's events are of different enquiries, so they go at once, and what became of them is recorded
 * in one write (a busy site's enquiries wait on the database's write lock once per batch, not twice per
 * event), retried while the database refuses it. After a full batch it pauses BATCH_PAUSE_MS (at most 64
 * events a second), or BUSY_PAUSE_MS when the server was busy since the last pause (at most 8 a second
 * while visitors keep it busy, the rest once they ease off), so a backlog never takes the server from its visitors.
 */
export function createWebhookWorker(options: WebhookWorkerOptions) {
  const { db } = options;
  const now = options.now ?? Date.now;
  const w = webhookEvents;
  const serverBusy = options.serverBusy ?? eventLoopBusy();
  const worker = createWorker({
    name: 'webhooks',
    db,
    table: w,
    owner: `webhooks-${process.pid}-${randomBytes(4).toString('hex')}`,
    leaseMs: LEASE_MS,
    schedule: webhookSchedule,
    /**
     * Up to CLAIM_BATCH due events, each the first pending one of its enquiry, after writing the pending
     * `enquiry.received` events. An enquiry's events in order: its `enquiry.received` first (written
     * after the others when it was pending), then the rest as they were written. Its other events come
     * from links it was sent, so none exists before its `enquiry.received` was written by an earlier round.
     */
    claimDue: async (claim) => {
      await writePendingReceivedEvents(db);
      // Ranked by (not enquiry.received, id): the row values compare in that order.
      return claim({
        limit: CLAIM_BATCH,
        where: sql`NOT EXISTS (SELECT 1 FROM ${w} AS earlier WHERE earlier.enquiry_id = ${w.enquiryId} AND earlier.status = 'pending'
          AND (earlier.type <> 'enquiry.received', earlier.id) < (${w.type} <> 'enquiry.received', ${w.id}))`,
        orderBy: [w.nextAttemptMs, w.id],
      });
    },
    handle: webhookHandler(options, now),
    recordTogether: {
      notRecorded: (count, error, givingUp) =>
        `${count} events were sent but could not be recorded; ${givingUp ? 'they may be sent again, with the same ids, after their lease' : 'still trying'}: ${errorMessage(error)}`,
    },
    pauseAfter: (size) =>
      size === CLAIM_BATCH ? (serverBusy() ? (options.busyPauseMs ?? BUSY_PAUSE_MS) : (options.batchPauseMs ?? BATCH_PAUSE_MS)) : undefined,
    pollMs: options.pollMs,
    roundFailed: (error) => `a round failed: ${errorMessage(error)}`,
    summarize: (reports) => reports.length,
    log: options.log ?? ((line: string) => console.log(line)),
    now,
  });

  return { runOnce: worker.runOnce, start: () => worker.start(), stop: worker.stop };
}
