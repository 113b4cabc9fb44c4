import type { Migration } from '@/server/base/migrations';

/**
 * The outbox gains a fifth kind of job, 'reminder': the homeowner's reminder of a booked survey visit,
 * due at 18:00 on the working day before it (`next_attempt_ms`), for the change of stage that booked or
 * moved the visit (`stage_change_id`), so a restart keeps it and it goes once. SQLite cannot change a
 * CHECK constraint, so the table is rebuilt as in 0014, with every row and its `photos_from` (0016);
 * nothing references it.
 */
export const surveyRemindersMigration: Migration = {
  id: '0032-survey-reminders',
  statements: [
    `CREATE TABLE enquiry_notifications_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      kind TEXT NOT NULL DEFAULT 'notification' CHECK (kind IN ('notification', 'acknowledgement', 'photos', 'stage', 'reminder')),
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      sent_at TEXT,
      message_id TEXT,
      stage_change_id INTEGER REFERENCES claim_stage_changes (id),
      photos_from INTEGER
    )`,
    `INSERT INTO enquiry_notifications_new (id, enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms,
        last_error, sent_at, message_id, stage_change_id, photos_from)
      SELECT id, enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms,
        last_error, sent_at, message_id, stage_change_id, photos_from
      FROM enquiry_notifications`,
    `DROP TABLE enquiry_notifications`,
    `ALTER TABLE enquiry_notifications_new RENAME TO enquiry_notifications`,
    `CREATE INDEX enquiry_notifications_due ON enquiry_notifications (status, next_attempt_ms)`,
    `CREATE UNIQUE INDEX enquiry_notifications_one_each
      ON enquiry_notifications (enquiry_id, kind, coalesce(stage_change_id, 0), coalesce(photos_from, 0))`,
  ],
};
