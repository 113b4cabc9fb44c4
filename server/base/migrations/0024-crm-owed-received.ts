import type { Migration } from '@/server/base/migrations';

/**
 * An accepted enquiry stored while the CRM's webhooks are on is pending its `enquiry.received` event.
 * The intake only marks it (a column of the row it writes anyway); the CRM's worker writes the pending
 * events into webhook_events in its own batches (server/ledger/outbox.ts, writePendingReceivedEvents),
 * so a busy intake pays no statement of its own for the CRM. The partial index holds only the pending.
 */
export const crmOwedReceivedMigration: Migration = {
  id: '0024-crm-owed-received',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN crm_owed_received INTEGER NOT NULL DEFAULT 0`,
    `CREATE INDEX enquiries_crm_owed_received ON enquiries (id) WHERE crm_owed_received = 1`,
  ],
};
