import 'server-only';
import type { Client } from '@libsql/client';
import type { ErrorLogRecord, LogCategory, LogLevel } from '@/lib/error-log-record';
import { getDb } from '@/server/db';

/** Who wrote an entry: the server itself, or a visitor through the public endpoint. */
export type ErrorLogReporter = 'server' | 'visitor';

/**
 * The most entries from visitors the table keeps; beyond it the oldest are dropped as new ones arrive.
 * With records capped at MAX_ERROR_LOG_BYTES (12 KiB) that bounds them at about 120 MB, and the
 * retention job drops anything older than 90 days. The server's own entries are not capped here.
 */
export const MAX_VISITOR_ERROR_LOGS = 10_000;

export type StoredErrorLog = {
  id: number;
  receivedAt: string;
  reportedBy: ErrorLogReporter;
  clientAddress: string | null;
  level: LogLevel;
  category: LogCategory;
  source: string;
  message: string;
  path: string | null;
  method: string | null;
  statusCode: number | null;
};

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Records an entry: one structured JSON line on stdout (for whatever collects the process output),
 * then a row in error_logs. The stdout line is written first so the entry survives a database failure.
 */
export async function storeErrorLog(
  record: ErrorLogRecord,
  options: { reportedBy: ErrorLogReporter; clientAddress?: string; db?: Client; stdout?: (line: string) => void; maxVisitorRows?: number },
): Promise<{ id: number }> {
  const receivedAt = new Date().toISOString();
  const write = options.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  // One JSON object per line whatever the record holds (JSON escapes newlines and control characters).
  write(
    JSON.stringify({
      type: 'error-log',
      receivedAt,
      reportedBy: options.reportedBy,
      ...record,
      clientAddress: options.clientAddress ?? null,
    }),
  );

  const db = options.db ?? (await getDb());
  const result = await db.execute({
    sql: `INSERT INTO error_logs (received_at, application, level, category, source, message, stack, metadata, user_id,
            status_code, path, method, request_payload, user_agent, client_address, reported_by)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      receivedAt,
      record.application,
      record.level,
      record.category,
      record.source,
      record.message,
      record.stack ?? null,
      json(record.metadata),
      record.userId ?? null,
      record.statusCode ?? null,
      record.path ?? null,
      record.method ?? null,
      json(record.requestPayload),
      record.userAgent ?? null,
      options.clientAddress ?? null,
      options.reportedBy,
    ],
  });
  if (options.reportedBy === 'visitor') {
    await db.execute({
      sql: `DELETE FROM error_logs WHERE reported_by = 'visitor' AND id <= (
              SELECT id FROM error_logs WHERE reported_by = 'visitor' ORDER BY id DESC LIMIT 1 OFFSET ?)`,
      args: [options.maxVisitorRows ?? MAX_VISITOR_ERROR_LOGS],
    });
  }
  return { id: Number(result.lastInsertRowid) };
}

/** The most recent entries, newest first. */
export async function recentErrorLogs(limit: number, db?: Client): Promise<StoredErrorLog[]> {
  const client = db ?? (await getDb());
  const result = await client.execute({
    sql: `SELECT id, received_at, reported_by, client_address, level, category, source, message, path, method, status_code
          FROM error_logs ORDER BY received_at DESC, id DESC LIMIT ?`,
    args: [limit],
  });
  return result.rows.map((row) => ({
    id: Number(row.id),
    receivedAt: String(row.received_at),
    reportedBy: row.reported_by === 'server' ? 'server' : 'visitor',
    clientAddress: row.client_address === null ? null : String(row.client_address),
    level: String(row.level) as LogLevel,
    category: String(row.category) as LogCategory,
    source: String(row.source),
    message: String(row.message),
    path: row.path === null ? null : String(row.path),
    method: row.method === null ? null : String(row.method),
    statusCode: row.status_code === null ? null : Number(row.status_code),
  }));
}
