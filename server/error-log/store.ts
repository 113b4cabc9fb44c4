import 'server-only';
import type { Client } from '@libsql/client';
import { desc, eq, sql } from 'drizzle-orm';
import { recordWithoutLinkTokens, truncate, type ErrorLogRecord, type LogCategory, type LogLevel } from '@/lib/error-log';
import { visibleText } from '@/lib/plain-text';
import { getDb, orm } from '@/server/base/db';
import { errorLogs, type LOG_REPORTERS } from '@/server/base/db-schema';
import { errorGroupKey } from '@/server/base/error-group-key';

/** Who wrote an entry: the server itself, or a visitor through the public endpoint. */
type ErrorLogReporter = (typeof LOG_REPORTERS)[number];

/**
 * The most rows of visitors' reports the table keeps; beyond it the rows seen least recently are dropped
 * as new ones arrive (a failure that keeps recurring stays). One row is one failure however often it was
 * reported (errorGroupKey), and new rows are budgeted (server/error-log/intake.ts); with records capped
 * at MAX_ERROR_LOG_BYTES (12 KiB) the rows stay under about 120 MB, and the retention job drops any first
 * seen more than 90 days ago. The server's alerts are not capped here; its request errors are (below).
 */
const MAX_VISITOR_ERROR_LOGS = 10_000;

/**
 * The most rows of the server's grouped request errors (server-entries.ts) the table keeps, the least
 * recently seen dropped first; their new rows are budgeted there too.
 */
const MAX_SERVER_ERROR_GROUPS = 2_000;

export type StoredErrorLog = {
  id: number;
  /** When it was first seen. */
  receivedAt: string;
  /** When it was last seen: the same as receivedAt for an entry seen once. */
  lastSeenAt: string;
  /** How many reports it stands for (visitors' reports of one failure are one row). */
  occurrences: number;
  reportedBy: ErrorLogReporter;
  /** For a visitor's row, the address of the latest report. */
  clientAddress: string | null;
  level: LogLevel;
  category: LogCategory;
  source: string;
  message: string;
  path: string | null;
  method: string | null;
  statusCode: number | null;
};

/** `stored: false`: a new visitor's row was not allowed (mayAddRow refused) and nothing was written. */
export type StoreOutcome = { stored: true; id: number; occurrences: number } | { stored: false };

export type StoreOptions = {
  reportedBy: ErrorLogReporter;
  clientAddress?: string;
  db?: Client;
  stdout?: (line: string) => void;
  maxVisitorRows?: number;
  /**
   * Asked before a visitor's report that repeats no stored row adds one (the intake's hourly budgets);
   * a repeat is always counted. Absent: always allowed.
   */
  mayAddRow?: () => boolean;
  /** A server entry's group key (server-entries.ts): repeats of it are one row with a count. */
  groupKey?: string;
  /** The most grouped server rows kept; beyond it the least recently seen go. */
  maxServerGroups?: number;
};

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

const escapeCharacter = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * One JSON line for stdout that prints as it is on any terminal: JSON escapes newlines and C0 controls;
 * C1 controls, bidirectional and zero-width characters are escaped too (lib/plain-text.ts).
 */
const jsonLine = (value: unknown) => visibleText(JSON.stringify(value).replace(/[\u007f-\u009f]/g, escapeCharacter), escapeCharacter);

/**
 * A visitor's report on stdout: one short line (what, where, how often, the row to look at with
 * `npm run logs`), never the record itself, so a flood of reports cannot flood the process output.
 */
function visitorLine(record: ErrorLogRecord, stored: { id: number; occurrences: number }, at: string, clientAddress: string | null) {
  return jsonLine({
    type: 'error-log',
    id: stored.id,
    receivedAt: at,
    reportedBy: 'visitor',
    clientAddress,
    level: record.level,
    category: record.category,
    source: truncate(record.source, 40),
    path: record.path == null ? null : truncate(record.path, 100),
    occurrences: stored.occurrences,
    message: truncate(record.message, 120),
  });
}

/**
 * Records an entry, every claim link's token cut out of it first. A report that repeats a stored one
 * (its group key: for a visitor's report errorGroupKey, the same message, category and path; for the
 * server's request errors the key server-entries.ts gives) adds one to that row's count and sets its
 * last-seen time and address: nothing new is stored. Any other becomes a new row if `mayAddRow`
 * allows, the least recently seen rows of its kind beyond their cap going. Each visitor's report is
 * one short line on stdout.
 *
 * The server's own entries are written to stdout whole (one JSON line) before the row, so an entry
 * survives a database failure: it is often the database that failed. Without a `groupKey` (an
 * operator alert, a count of dropped reports: a few an hour at most) each is a row of its own.
 */
export async function storeErrorLog(reported: ErrorLogRecord, options: StoreOptions): Promise<StoreOutcome> {
  const record = recordWithoutLinkTokens(reported);
  const receivedAt = new Date().toISOString();
  const write = options.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const clientAddress = options.clientAddress ?? null;
  const db = orm(options.db ?? (await getDb()));
  const row = {
    receivedAt,
    lastSeenAt: receivedAt,
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
    clientAddress,
    reportedBy: options.reportedBy,
  };
  const counted = { id: errorLogs.id, occurrences: errorLogs.occurrences };

  if (options.reportedBy === 'server') {
    write(jsonLine({ type: 'error-log', receivedAt, reportedBy: 'server', ...record, clientAddress }));
    if (options.groupKey === undefined) {
      const [inserted] = await db.insert(errorLogs).values(row).returning(counted);
      return { stored: true, id: inserted?.id ?? 0, occurrences: 1 };
    }
  }

  const server = options.reportedBy === 'server';
  const groupKey = options.groupKey ?? errorGroupKey(record);
  const repeat = { occurrences: sql`${errorLogs.occurrences} + 1`, lastSeenAt: receivedAt, clientAddress };
  const [repeated] = await db.update(errorLogs).set(repeat).where(eq(errorLogs.groupKey, groupKey)).returning(counted);
  let stored = repeated;
  if (!stored) {
    if (options.mayAddRow && !options.mayAddRow()) return { stored: false };
    // Another request may have added the row since: then this is a repeat after all.
    [stored] = await db
      .insert(errorLogs)
      .values({ ...row, groupKey })
      .onConflictDoUpdate({ target: errorLogs.groupKey, set: repeat })
      .returning(counted);
    if (stored?.occurrences === 1) {
      if (server) await dropLeastRecentServerGroups(db, options.maxServerGroups ?? MAX_SERVER_ERROR_GROUPS);
      else await dropLeastRecentVisitorRows(db, options.maxVisitorRows ?? MAX_VISITOR_ERROR_LOGS);
    }
  }
  const result = { id: stored?.id ?? 0, occurrences: stored?.occurrences ?? 1 };
  if (!server) write(visitorLine(record, result, receivedAt, clientAddress));
  return { stored: true, ...result };
}

/** Deletes the visitors' rows beyond the newest `keep` by last-seen time. */
async function dropLeastRecentVisitorRows(db: ReturnType<typeof orm>, keep: number) {
  const e = errorLogs;
  await db.run(sql`DELETE FROM ${e} WHERE ${e.reportedBy} = 'visitor' AND (${e.lastSeenAt}, ${e.id}) <= (
    SELECT ${e.lastSeenAt}, ${e.id} FROM ${e} WHERE ${e.reportedBy} = 'visitor'
    ORDER BY ${e.lastSeenAt} DESC, ${e.id} DESC LIMIT 1 OFFSET ${keep})`);
}

/** Deletes the server's grouped rows beyond the newest `keep` by last-seen time (its alerts, ungrouped, stay). */
async function dropLeastRecentServerGroups(db: ReturnType<typeof orm>, keep: number) {
  const e = errorLogs;
  const grouped = sql`${e.reportedBy} = 'server' AND ${e.groupKey} IS NOT NULL`;
  await db.run(sql`DELETE FROM ${e} WHERE ${grouped} AND (${e.lastSeenAt}, ${e.id}) <= (
    SELECT ${e.lastSeenAt}, ${e.id} FROM ${e} WHERE ${grouped}
    ORDER BY ${e.lastSeenAt} DESC, ${e.id} DESC LIMIT 1 OFFSET ${keep})`);
}

/**
 * The most recently seen entries, newest first: a visitor's failure reported many times is one entry
 * with its count, first and last time.
 */
export async function recentErrorLogs(limit: number, db?: Client): Promise<StoredErrorLog[]> {
  const rows = await orm(db ?? (await getDb()))
    .select({
      id: errorLogs.id,
      receivedAt: errorLogs.receivedAt,
      lastSeenAt: sql<string>`coalesce(${errorLogs.lastSeenAt}, ${errorLogs.receivedAt})`,
      occurrences: errorLogs.occurrences,
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
    .orderBy(desc(errorLogs.lastSeenAt), desc(errorLogs.id))
    .limit(limit);
  return rows;
}
