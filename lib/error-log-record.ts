import { z } from 'zod';

/** Section 3's error-log record, shared by the browser logger and the built-in /api/error-logs endpoint. */
export const logLevels = ['info', 'warning', 'error', 'critical'] as const;
export const logCategories = ['server', 'client', 'network', 'auth', 'database'] as const;

export type LogLevel = (typeof logLevels)[number];
export type LogCategory = (typeof logCategories)[number];

export const LOG_APPLICATION = 'homecare-web';
export const LOG_SOURCE_FRONTEND = 'frontend';

export const errorLogRecordSchema = z.object({
  application: z.string().trim().min(1).max(100),
  level: z.enum(logLevels),
  message: z.string().min(1).max(2_000),
  stack: z.string().max(8_000).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  source: z.string().trim().min(1).max(100),
  userId: z.string().max(200).nullish(),
  statusCode: z.number().int().min(0).max(999).nullish(),
  category: z.enum(logCategories),
  path: z.string().max(2_000).nullish(),
  method: z.string().max(16).nullish(),
  requestPayload: z.unknown().optional(),
  userAgent: z.string().max(1_000).nullish(),
});

export type ErrorLogRecord = z.infer<typeof errorLogRecordSchema>;

/**
 * The largest serialised record the logger sends and the endpoint accepts. Browsers allow at most
 * 64 KiB of keepalive request bodies in flight per page; 5 entries (the remote cap) of 12 KiB fit.
 */
export const MAX_ERROR_LOG_BYTES = 12 * 1024;
