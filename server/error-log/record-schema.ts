import { z } from 'zod';
import { logCategories, logLevels, type ErrorLogRecord } from '@/lib/error-log';

/**
 * The error-log record as a schema, used by the built-in /api/error-logs endpoint and the
 * tests. The browser imports lib/error-log.ts instead, so zod stays out of its bundles.
 */
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

// The schema and the hand-written type must describe the same record: this fails to compile if not.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<z.infer<typeof errorLogRecordSchema>, ErrorLogRecord> = true;
void schemaMatchesType;
