/**
 * Section 3's error-log record: the constants and the type, without zod, so the browser logger can
 * use them without shipping a validation library. The schema that checks incoming records is in
 * lib/error-log-record.ts (server and tests only), which asserts it matches this type.
 */
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
