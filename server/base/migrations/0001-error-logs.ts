import type { Migration } from '@/server/base/migrations';

export const errorLogsMigration: Migration = {
  id: '0001-error-logs',
  statements: [
    `CREATE TABLE error_logs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
      application TEXT NOT NULL,
      level TEXT NOT NULL,
      category TEXT NOT NULL,
      source TEXT NOT NULL,
      message TEXT NOT NULL,
      stack TEXT,
      metadata TEXT,
      user_id TEXT,
      status_code INTEGER,
      path TEXT,
      method TEXT,
      request_payload TEXT,
      user_agent TEXT,
      client_address TEXT
    )`,
    `CREATE INDEX error_logs_received_at ON error_logs (received_at)`,
  ],
};
