import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, eq, gte, inArray, lt, min, sql } from 'drizzle-orm';
import { enquiryReference } from '@/lib/enquiry-reference';
import { config } from '@/server/base/config.mjs';
import { enquiryReceivedEvent } from '@/server/crm/outgoing-events';
import { orm, writeBatch } from '@/server/base/db';
import { enquiries, webhookEvents, type WebhookEventType } from '@/server/base/db-schema';

/**
 * What the owner sees of the CRM's webhooks (server/crm/webhooks.ts delivers them): the figures
 * `npm run health` and the digest show, each enquiry's state for `npm run enquiries`, and sending an
 * enquiry's events again (`npm run webhooks -- --resend`). The views only read: an enquiry the
 * worker has not reached yet (marked as pending its `enquiry.received`, server/ledger/outbox.ts) counts
 * as that event, pending since the enquiry was received, as the worker will write it. Only the worker
 * writes the pending events, so a health check or a listing never waits for, or holds, the write lock.
 */

/**
 * The enquiries pending an `enquiry.received` the worker has not written yet: marked, and with no such
 * event (one a re-send wrote stands for it until the worker clears the mark).
 */
const RECEIVED_PENDING = `e.crm_owed_received = 1
  AND NOT EXISTS (SELECT 1 FROM webhook_events w WHERE w.enquiry_id = e.id AND w.type = 'enquiry.received')`;

type PendingReceived = { enquiryId: number; reference: string | null; receivedMs: number };

/** The pending events, oldest first; of these enquiries only, when given. */
async function pendingReceivedEvents(db: Client, enquiryIds?: readonly number[]): Promise<PendingReceived[]> {
  const among = enquiryIds ? ` AND e.id IN (${enquiryIds.map(() => '?').join(', ')})` : '';
  const { rows } = await db.execute({
    sql: `SELECT e.id, e.reference, e.received_ms FROM enquiries e WHERE ${RECEIVED_PENDING}${among} ORDER BY e.received_ms, e.id`,
    args: [...(enquiryIds ?? [])],
  });
  return rows.map((row) => ({
    enquiryId: Number(row.id),
    reference: row.reference === null ? null : String(row.reference),
    receivedMs: Number(row.received_ms),
  }));
}

/** Whether this process tells the company's CRM of its enquiries (CRM_WEBHOOK_URL and CRM_WEBHOOK_SECRET set). */
export const webhooksConfigured = (): boolean => config().crmWebhook !== null;

export type WebhookFigures = {
  /** Events still to be delivered (the worker keeps trying them for about a day). */
  pending: number;
  /** Events the worker gave up on: refused by the CRM, or not delivered within a day. */
  failed: number;
  /** When the oldest pending event was queued (its createdMs, an instant); null when none is pending. */
  oldestUndeliveredMs: number | null;
  /** How long that event has waited by `now`, in whole seconds; null when none is pending. */
  oldestUndeliveredSeconds: number | null;
};

export async function webhookFigures(db: Client, now: number): Promise<WebhookFigures> {
  const rows = await orm(db)
    .select({ status: webhookEvents.status, events: count(), oldestCreatedMs: min(webhookEvents.createdMs) })
    .from(webhookEvents)
    .where(inArray(webhookEvents.status, ['pending', 'failed']))
    .groupBy(webhookEvents.status);
  const [notYetWritten] = (
    await db.execute(`SELECT count(*) AS events, min(e.received_ms) AS oldest FROM enquiries e WHERE ${RECEIVED_PENDING}`)
  ).rows;
  const pending = rows.find((row) => row.status === 'pending');
  const oldests = [pending?.oldestCreatedMs ?? null, notYetWritten?.oldest ?? null].filter((ms) => ms !== null).map(Number);
  const oldest = oldests.length > 0 ? Math.min(...oldests) : null;
  return {
    pending: (pending?.events ?? 0) + Number(notYetWritten?.events ?? 0),
    failed: rows.find((row) => row.status === 'failed')?.events ?? 0,
    oldestUndeliveredMs: oldest,
    oldestUndeliveredSeconds: oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 1000)),
  };
}

/** How many events reached the CRM from `fromMs` (inclusive) to `toMs` (exclusive): a digest's period. */
export async function webhooksDeliveredBetween(db: Client, fromMs: number, toMs: number): Promise<number> {
  const [row] = await orm(db)
    .select({ events: count() })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.status, 'delivered'),
        gte(webhookEvents.deliveredAt, new Date(fromMs).toISOString()),
        lt(webhookEvents.deliveredAt, new Date(toMs).toISOString()),
      ),
    );
  return row?.events ?? 0;
}

/**
 * Where an enquiry stands with the CRM, for a listing: every event delivered; some still being tried
 * (the most attempts one of them has had, and its last error); or one failed for good (its error).
 */
export type WebhookState =
  { state: 'delivered' } | { state: 'pending'; attempts: number; lastError: string | null } | { state: 'failed'; lastError: string | null };

/** The state of each of these enquiries that has events; one with none is not in the map. */
export async function webhookStateOf(db: Client, enquiryIds: readonly number[]): Promise<Map<number, WebhookState>> {
  const states = new Map<number, WebhookState>();
  if (enquiryIds.length === 0) return states;
  const ids = [...new Set(enquiryIds)];
  const rows = await orm(db)
    .select({
      enquiryId: webhookEvents.enquiryId,
      status: webhookEvents.status,
      attempts: webhookEvents.attempts,
      lastError: webhookEvents.lastError,
    })
    .from(webhookEvents)
    .where(inArray(webhookEvents.enquiryId, ids))
    .orderBy(webhookEvents.id);
  // A pending event would be written after the enquiry's others: it comes last, never tried.
  const notYetWritten = (await pendingReceivedEvents(db, ids)).map(({ enquiryId }) => ({
    enquiryId,
    status: 'pending',
    attempts: 0,
    lastError: null,
  }));
  for (const row of [...rows, ...notYetWritten]) {
    const known = states.get(row.enquiryId);
    if (known?.state === 'failed') continue;
    if (row.status === 'failed') states.set(row.enquiryId, { state: 'failed', lastError: row.lastError });
    else if (row.status === 'pending') {
      if (known?.state !== 'pending' || row.attempts > known.attempts)
        states.set(row.enquiryId, { state: 'pending', attempts: row.attempts, lastError: row.lastError });
    } else if (!known) states.set(row.enquiryId, { state: 'delivered' });
  }
  return states;
}

export type UndeliveredEvent = {
  reference: string;
  type: WebhookEventType;
  status: 'pending' | 'failed';
  attempts: number;
  lastError: string | null;
  createdMs: number;
  nextAttemptMs: number;
};

/** Every event not delivered (pending or failed for good), oldest first: `npm run webhooks -- --list`, the digest. */
export async function undeliveredEvents(db: Client): Promise<UndeliveredEvent[]> {
  const rows = await orm(db)
    .select({
      enquiryId: webhookEvents.enquiryId,
      reference: enquiries.reference,
      type: webhookEvents.type,
      status: webhookEvents.status,
      attempts: webhookEvents.attempts,
      lastError: webhookEvents.lastError,
      createdMs: webhookEvents.createdMs,
      nextAttemptMs: webhookEvents.nextAttemptMs,
    })
    .from(webhookEvents)
    .innerJoin(enquiries, eq(enquiries.id, webhookEvents.enquiryId))
    .where(inArray(webhookEvents.status, ['pending', 'failed']))
    .orderBy(webhookEvents.createdMs, webhookEvents.id);
  const stored = rows.map(({ enquiryId, reference, status, ...event }): UndeliveredEvent => ({
    ...event,
    reference: reference ?? enquiryReference(enquiryId),
    status: status === 'failed' ? 'failed' : 'pending',
  }));
  const notYetWritten = (await pendingReceivedEvents(db)).map(({ enquiryId, reference, receivedMs }): UndeliveredEvent => ({
    reference: reference ?? enquiryReference(enquiryId),
    type: 'enquiry.received',
    status: 'pending',
    attempts: 0,
    lastError: null,
    createdMs: receivedMs,
    nextAttemptMs: receivedMs,
  }));
  // A stable sort: of two queued at the same moment, the one written already comes first.
  return [...stored, ...notYetWritten].sort((a, b) => a.createdMs - b.createdMs);
}

/**
 * Sends an enquiry's events again, under their original ids (a CRM that has one already applies it
 * once): each goes back to pending, due now, with its attempts and its day of retries starting again.
 * An accepted enquiry with no events (stored before the webhooks were on) gets its `enquiry.received`.
 * Returns how many events are queued; null when there is no such enquiry.
 */
export async function resendEvents(db: Client, enquiryId: number, now: number): Promise<number | null> {
  const q = orm(db);
  const w = webhookEvents;
  const [requeued, received] = await writeBatch(db, [
    q
      .update(w)
      .set({
        status: 'pending',
        attempts: 0,
        nextAttemptMs: now,
        createdMs: now,
        lastError: null,
        leaseOwner: null,
        leaseUntilMs: null,
        deliveredAt: null,
      })
      .where(eq(w.enquiryId, enquiryId)),
    q.run(
      enquiryReceivedEvent(
        sql`SELECT ${enquiries.id} AS id FROM ${enquiries}
          WHERE ${enquiries.id} = ${enquiryId} AND ${enquiries.disposition} = 'accepted'
            AND NOT EXISTS (SELECT 1 FROM ${w} WHERE ${w.enquiryId} = ${enquiryId})`,
        now,
      ),
    ),
  ]);
  const queued = (requeued?.rowsAffected ?? 0) + (received?.rowsAffected ?? 0);
  if (queued > 0) return queued;
  const [enquiry] = await q.select({ id: enquiries.id }).from(enquiries).where(eq(enquiries.id, enquiryId));
  return enquiry ? 0 : null;
}
