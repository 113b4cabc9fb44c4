import type { Migration } from '@/server/base/migrations';

/**
 * Each enquiry's reference (unique; NULL only for enquiries stored before it existed) and
 * its optional claim details; the outbox's jobs gain a kind, so an enquiry can have its company
 * notification and the visitor's acknowledgement, each at most once. SQLite cannot drop the old
 * UNIQUE (enquiry_id), so that table is rebuilt (https://www.sqlite.org/lang_altertable.html, "other
 * kinds of table schema changes"); nothing references it.
 */
export const claimsReferencesAcknowledgementsMigration: Migration = {
  id: '0004-claims-references-acknowledgements',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN reference TEXT`,
    `CREATE UNIQUE INDEX enquiries_reference ON enquiries (reference)`,
    `ALTER TABLE enquiries ADD COLUMN claim_role TEXT`,
    `ALTER TABLE enquiries ADD COLUMN insurer TEXT`,
    `ALTER TABLE enquiries ADD COLUMN claim_reference TEXT`,
    `ALTER TABLE enquiries ADD COLUMN damage_date TEXT`,
    `ALTER TABLE enquiries ADD COLUMN damage_type TEXT`,
    `ALTER TABLE enquiries ADD COLUMN postcode TEXT`,
    `CREATE TABLE enquiry_notifications_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      kind TEXT NOT NULL DEFAULT 'notification' CHECK (kind IN ('notification', 'acknowledgement')),
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      sent_at TEXT,
      message_id TEXT,
      UNIQUE (enquiry_id, kind)
    )`,
    `INSERT INTO enquiry_notifications_new (id, enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, sent_at, message_id)
      SELECT id, enquiry_id, 'notification', status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, sent_at, message_id
      FROM enquiry_notifications`,
    `DROP TABLE enquiry_notifications`,
    `ALTER TABLE enquiry_notifications_new RENAME TO enquiry_notifications`,
    `CREATE INDEX enquiry_notifications_due ON enquiry_notifications (status, next_attempt_ms)`,
  ],
};
