/**
 * The error-log record: the constants, the type and the size cap, without zod, so the
 * browser logger can use them without shipping a validation library. The schema that checks incoming
 * records is server/error-log/record-schema.ts, which asserts it matches this type.
 */
import { withoutLinkTokens } from '@/lib/claim-paths.mjs';

export const logLevels = ['info', 'warning', 'error', 'critical'] as const;
export const logCategories = ['server', 'client', 'network', 'auth', 'database'] as const;

export type LogLevel = (typeof logLevels)[number];
export type LogCategory = (typeof logCategories)[number];

export const LOG_APPLICATION = 'homecare-web';
export const LOG_SOURCE_FRONTEND = 'frontend';

/**
 * The largest serialised record the logger sends and the endpoint accepts. Browsers allow at most
 * 64 KiB of keepalive request bodies in flight per page; 5 entries (the remote cap) of 12 KiB fit.
 */
export const MAX_ERROR_LOG_BYTES = 12 * 1024;

export type ErrorLogRecord = {
  application: string;
  level: LogLevel;
  message: string;
  stack?: string | null;
  metadata?: Record<string, unknown> | null;
  source: string;
  userId?: string | null;
  statusCode?: number | null;
  category: LogCategory;
  path?: string | null;
  method?: string | null;
  requestPayload?: unknown;
  userAgent?: string | null;
};

/**
 * The record with every claim link's token cut out of its text (a page's path, a request's URL in a
 * message or metadata, a stack): the log is read and kept where a link's token must never be.
 */
export function recordWithoutLinkTokens(record: ErrorLogRecord): ErrorLogRecord {
  // A token's characters need no escaping in JSON, so cutting it from the JSON text cuts it from every string in the record.
  return JSON.parse(withoutLinkTokens(JSON.stringify(record))) as ErrorLogRecord;
}

// Keeping one error-log record within MAX_ERROR_LOG_BYTES: shared by the browser's logger and the
// server's own entries (server/error-log/server-entries.ts), and free of either's side effects.

/** The text cut to `max` characters, the last one an ellipsis. */
export function truncate(value: string, max: number) {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

const byteLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * Shrinks a record until its JSON fits MAX_ERROR_LOG_BYTES, dropping the bulkiest optional parts
 * first, so every entry the logger sends is one the endpoint accepts.
 */
export function capRecordSize(record: ErrorLogRecord): ErrorLogRecord {
  let capped: ErrorLogRecord = {
    ...record,
    message: truncate(record.message, 2_000),
    stack: record.stack ? truncate(record.stack, 8_000) : record.stack,
    userAgent: record.userAgent ? truncate(record.userAgent, 1_000) : record.userAgent,
    path: record.path ? truncate(record.path, 2_000) : record.path,
  };
  if (byteLength(capped) <= MAX_ERROR_LOG_BYTES) return capped;
  if (capped.requestPayload !== undefined) {
    capped = { ...capped, requestPayload: '[omitted: too large]' };
    if (byteLength(capped) <= MAX_ERROR_LOG_BYTES) return capped;
  }
  if (capped.metadata) {
    capped = { ...capped, metadata: { omitted: 'too large' } };
    if (byteLength(capped) <= MAX_ERROR_LOG_BYTES) return capped;
  }
  // Halve the free-text fields in turn; the other fields are bounded, so this ends.
  const shrinkable = ['stack', 'userAgent', 'path', 'message'] as const;
  while (byteLength(capped) > MAX_ERROR_LOG_BYTES) {
    const field = shrinkable.reduce((largest, name) => ((capped[name]?.length ?? 0) > (capped[largest]?.length ?? 0) ? name : largest));
    const value = capped[field] ?? '';
    capped = { ...capped, [field]: truncate(value, Math.max(1, Math.floor(value.length / 2))) };
  }
  return capped;
}
