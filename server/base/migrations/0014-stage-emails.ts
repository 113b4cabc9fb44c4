import type { Migration } from '@/server/base/migrations';

/**
 * The outbox gains a fourth kind of job, 'stage': the customer's e-mail about one change of their
 * claim's stage (`stage_change_id`), so a change is told exactly once and an enquiry can have one per
 * change. The other kinds stay at most one per enquiry: the unique key counts a missing change as 0.
 * SQLite cannot change a CHECK constraint or a table's UNIQUE key, so the table is rebuilt as in 0010;
 * nothing references it.
 */
export const stageEmailsMigration: Migration = {
  id: '0014-stage-emails',
  statements: [
    `CREATE TABLE enquiry_notifications_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      kind TEXT NOT NULL DEFAULT 'notification' CHECK (kind IN ('notification', 'acknowledgement', 'photos', 'stage')),
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      sent_at TEXT,
      message_id TEXT,
      stage_change_id INTEGER REFERENCES claim_stage_changes (id)
    )`,
    `INSERT INTO enquiry_notifications_new (id, enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, sent_at, message_id)
      SELECT id, enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, sent_at, message_id
      FROM enquiry_notifications`,
    `DROP TABLE enquiry_notifications`,
    `ALTER TABLE enquiry_notifications_new RENAME TO enquiry_notifications`,
    `CREATE INDEX enquiry_notifications_due ON enquiry_notifications (status, next_attempt_ms)`,
    `CREATE UNIQUE INDEX enquiry_notifications_one_each ON enquiry_notifications (enquiry_id, kind, coalesce(stage_change_id, 0))`,
  ],
};
