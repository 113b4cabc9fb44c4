import 'server-only';
import type { Client } from '@libsql/client';
import { and, desc, eq, lte } from 'drizzle-orm';
import type { ErrorLogRecord, LogCategory, LogLevel } from '@/lib/error-log';
import { getDb, orm } from '@/server/db';
import { errorLogs, type LOG_REPORTERS } from '@/server/db-schema';

/** Who wrote an entry: the server itself, or a visitor through the public endpoint. */
export type ErrorLogReporter = (typeof LOG_REPORTERS)[number];

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

  const db = orm(options.db ?? (await getDb()));
  const [inserted] = await db
    .insert(errorLogs)
    .values({
      receivedAt,
      application: record.application,
      level: record.level,
      category: record.category,
      source: record.source,
      message: record.message,
      stack: record.stack ?? null,
      metadata: json(record.metadata),
      userId: record.userId ?? null,
      statusCode: record.statusCode ?? null,
      path: record.path ?? null,
      method: record.method ?? null,
      requestPayload: json(record.requestPayload),
      userAgent: record.userAgent ?? null,
      clientAddress: options.clientAddress ?? null,
      reportedBy: options.reportedBy,
    })
    .returning({ id: errorLogs.id });
  if (options.reportedBy === 'visitor') {
    const oldestKept = db
      .select({ id: errorLogs.id })
      .from(errorLogs)
      .where(eq(errorLogs.reportedBy, 'visitor'))
      .orderBy(desc(errorLogs.id))
      .limit(1)
      .offset(options.maxVisitorRows ?? MAX_VISITOR_ERROR_LOGS);
    await db.delete(errorLogs).where(and(eq(errorLogs.reportedBy, 'visitor'), lte(errorLogs.id, oldestKept)));
  }
  return { id: inserted?.id ?? 0 };
}

/** The most recent entries, newest first. */
export async function recentErrorLogs(limit: number, db?: Client): Promise<StoredErrorLog[]> {
  const rows = await orm(db ?? (await getDb()))
    .select({
      id: errorLogs.id,
      receivedAt: errorLogs.receivedAt,
      reportedBy: errorLogs.reportedBy,
      clientAddress: errorLogs.clientAddress,
      level: errorLogs.level,
      category: errorLogs.category,
      source: errorLogs.source,
      message: errorLogs.message,
      path: errorLogs.path,
      method: errorLogs.method,
      statusCode: errorLogs.statusCode,
    })
    .from(errorLogs)
    .orderBy(desc(errorLogs.receivedAt), desc(errorLogs.id))
    .limit(limit);
  return rows;
}
