import type { Migration } from '@/server/base/migrations';

/**
 * The outbox gains a third kind of job, 'photos': photos that reached an enquiry after its notification
 * had gone out, sent to the company in a follow-up, at most once per enquiry (the UNIQUE key). SQLite
 * cannot change a CHECK constraint, so the table is rebuilt as in 0004; nothing references it.
 */
export const photosFollowUpMigration: Migration = {
  id: '0010-photos-follow-up',
  statements: [
    `CREATE TABLE enquiry_notifications_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      kind TEXT NOT NULL DEFAULT 'notification' CHECK (kind IN ('notification', 'acknowledgement', 'photos')),
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
      SELECT id, enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, sent_at, message_id
      FROM enquiry_notifications`,
    `DROP TABLE enquiry_notifications`,
    `ALTER TABLE enquiry_notifications_new RENAME TO enquiry_notifications`,
    `CREATE INDEX enquiry_notifications_due ON enquiry_notifications (status, next_attempt_ms)`,
  ],
};
