import type { Migration } from '@/server/base/migrations';

/**
 * The company's digest (server/reports/digest/sections/schedule.ts): one row per period, its key unique, with a
 * lease and attempts like enquiry_notifications. When this migration was applied is when the digest
 * started: a period that ended before it is never sent.
 */
export const digestsMigration: Migration = {
  id: '0008-digests',
  statements: [
    `CREATE TABLE digests (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      period_key TEXT NOT NULL,
      mode TEXT NOT NULL,
      period_start_ms INTEGER NOT NULL,
      period_end_ms INTEGER NOT NULL,
      covers_from_ms INTEGER NOT NULL,
      covers_to_ms INTEGER NOT NULL,
      trigger TEXT NOT NULL,
      recipient TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
      sent_at TEXT,
      message_id TEXT
    )`,
    `CREATE UNIQUE INDEX digests_period_key ON digests (period_key)`,
    `CREATE INDEX digests_due ON digests (status, next_attempt_ms)`,
  ],
};
