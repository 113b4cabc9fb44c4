import 'server-only';
import { errorLogRecordSchema, MAX_ERROR_LOG_BYTES, type ErrorLogRecord } from '@/lib/error-log-record';
import { clientAddress, rateLimitKey } from '@/server/client-address';
import { storeErrorLog } from '@/server/error-log-store';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

/**
 * Per client address. The browser logger sends at most 5 a minute per page load; this leaves room
 * for a visitor who moves between a few pages, and stops a script flooding the database.
 */
export const ERROR_LOG_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;

export type IntakeResult = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

type Store = (record: ErrorLogRecord, options: { reportedBy: 'visitor'; clientAddress: string }) => Promise<{ id: number }>;

export class BodyTooLarge extends Error {}

/** The body as UTF-8 text, refusing (BodyTooLarge) as soon as it passes maxBytes. */
export async function readCappedText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

const failure = (status: number, message: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): IntakeResult => ({
  status,
  body: { success: false, message, ...extra },
  headers,
});

/** POST /api/error-logs in the CRM's contract: 201 when stored, a 4xx for anything wrong with the request. */
export function createErrorLogIntake({
  limiter = createRateLimiter(ERROR_LOG_RATE_LIMIT),
  store = storeErrorLog,
}: { limiter?: RateLimiter; store?: Store } = {}) {
  return async function receiveErrorLog(request: Request): Promise<IntakeResult> {
    const address = clientAddress(request.headers);
    const decision = limiter.hit(rateLimitKey(address));
    if (!decision.allowed) {
      return failure(429, 'Too many error reports. Please try again later.', {}, { 'Retry-After': String(decision.retryAfterSeconds) });
    }

    const contentType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (contentType !== 'application/json') return failure(415, 'Send the error log as application/json.');

    let record: ErrorLogRecord;
    try {
      const text = await readCappedText(request, MAX_ERROR_LOG_BYTES);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return failure(400, 'The body is not valid JSON.');
      }
      const result = errorLogRecordSchema.safeParse(parsed);
      if (!result.success) {
        const errors = result.error.issues.map((issue) => ({ path: issue.path.join('.'), msg: issue.message }));
        return failure(422, 'The error log record is not valid.', { errors });
      }
      record = result.data;
      // Stored as JSON text later; refuse now anything that cannot be (e.g. nested too deeply).
      JSON.stringify(record);
    } catch (error) {
      if (error instanceof BodyTooLarge) return failure(413, `The error log record is larger than ${MAX_ERROR_LOG_BYTES} bytes.`);
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
