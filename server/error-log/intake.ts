import 'server-only';
import { MAX_ERROR_LOG_BYTES, type ErrorLogRecord } from '@/lib/error-log';
import { errorLogRecordSchema } from '@/server/error-log/record-schema';
import { clientAddress } from '@/server/client-address';
import { rateLimitKey } from '@/server/proxy-client-address.mjs';
import { storeErrorLog } from '@/server/error-log/store';
import { failure, readJsonBody, type HandlerResult } from '@/server/http';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

/**
 * Per client address. The browser logger sends at most 5 a minute per page load; this leaves room
 * for a visitor who moves between a few pages, and stops a script flooding the database.
 */
export const ERROR_LOG_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;

type Store = (record: ErrorLogRecord, options: { reportedBy: 'visitor'; clientAddress: string }) => Promise<{ id: number }>;

/** POST /api/error-logs in the CRM's contract: 201 when stored, a 4xx for anything wrong with the request. */
export function createErrorLogIntake({
  limiter = createRateLimiter(ERROR_LOG_RATE_LIMIT),
  store = storeErrorLog,
}: { limiter?: RateLimiter; store?: Store } = {}) {
  return async function receiveErrorLog(request: Request): Promise<HandlerResult> {
    const address = clientAddress(request.headers);
    const decision = limiter.hit(rateLimitKey(address));
    if (!decision.allowed) {
      return failure(429, 'Too many error reports. Please try again later.', {}, { 'Retry-After': String(decision.retryAfterSeconds) });
    }

    const body = await readJsonBody(request, MAX_ERROR_LOG_BYTES);
    if (!body.ok) {
      const message = {
        415: 'Send the error log as application/json.',
        413: `The error log record is larger than ${MAX_ERROR_LOG_BYTES} bytes.`,
        400: 'The body is not valid JSON.',
      }[body.status];
      return failure(body.status, message);
    }
    const result = errorLogRecordSchema.safeParse(body.value);
    if (!result.success) {
      const errors = result.error.issues.map((issue) => ({ path: issue.path.join('.'), msg: issue.message }));
      return failure(422, 'The error log record is not valid.', { errors });
    }
    const record: ErrorLogRecord = result.data;
    try {
      // Stored as JSON text later; refuse now anything that cannot be (nested too deeply to stringify).
      JSON.stringify(record);
    } catch {
      return failure(400, 'The request body could not be read.');
    }

    try {
      // Stored as a visitor's report whatever source or level it claims, so it cannot pass for the server's own.
      const { id } = await store(record, { reportedBy: 'visitor', clientAddress: address });
      return { status: 201, body: { success: true, id } };
    } catch (error) {
      // Not the visitor's doing; the entry is already on stdout.
      console.error('[error-logs] Could not store an error log entry:', error);
      return failure(503, 'The error log could not be stored right now.', {}, { 'Retry-After': '30' });
    }
  };
}

export const receiveErrorLog = createErrorLogIntake();
