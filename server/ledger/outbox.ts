import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { insertSelect } from '@/server/base/db';
import { enquiryNotifications } from '@/server/base/db-schema';

// The outbox: the jobs the delivery workers take (server/delivery/outbox-worker.ts sends the e-mails,
// server/crm/webhooks.ts the CRM's events, whose bodies server/crm/outgoing-events.ts builds), written
// in the same batch as what each tells of, and the signal that a batch wrote some. It imports only the
// database: the ledger and the claims write here without knowing who delivers.

// Kept on globalThis: Next may bundle this module into more than one chunk, and the listener
// registered at start must hear the writes of every copy.
const LISTENERS = Symbol.for('homecare.outbox.listeners');
type ListenerHolder = { [LISTENERS]?: Set<() => void> };
const listeners = () => ((globalThis as ListenerHolder)[LISTENERS] ??= new Set());

/** Says that a committed write queued jobs, so a worker delivers them now rather than at its next poll. */
export function outboxWritten(): void {
  for (const listener of listeners()) listener();
}

/** Hears every `outboxWritten()` of this process until the returned function is called. */
export function whenOutboxWritten(listener: () => void): () => void {
  listeners().add(listener);
  return () => void listeners().delete(listener);
}

/** An e-mail job, due now, of the enquiry the SELECT `enquiryId` yields (`target`) when `condition` holds; at most one of a kind. */
export const mailJob = (
  kind: (typeof enquiryNotifications.$inferSelect)['kind'],
  enquiryId: SQL,
  now: number,
  condition: SQL = sql`true`,
) =>
  insertSelect(
    enquiryNotifications,
    { enquiryId: sql`target.id`, kind, status: 'pending', nextAttemptMs: now },
    sql`FROM (${enquiryId}) AS target WHERE ${condition} ON CONFLICT DO NOTHING`,
  );
