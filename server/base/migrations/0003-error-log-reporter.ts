import type { Migration } from '@/server/base/migrations';

/**
 * Who wrote each error-log entry: the server itself, or a visitor through the public
 * POST /api/error-logs (whatever source or level the record claims). Entries the server stored
 * before this column existed carried the client address 'server'.
 */
export const errorLogReporterMigration: Migration = {
  id: '0003-error-log-reporter',
  statements: [
    `ALTER TABLE error_logs ADD COLUMN reported_by TEXT NOT NULL DEFAULT 'visitor' CHECK (reported_by IN ('server', 'visitor'))`,
    `UPDATE error_logs SET reported_by = 'server' WHERE client_address = 'server'`,
    `CREATE INDEX error_logs_reported_by ON error_logs (reported_by, id)`,
  ],
};
