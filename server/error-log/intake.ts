import 'server-only';
import { LOG_APPLICATION, MAX_ERROR_LOG_BYTES, type ErrorLogRecord } from '@/lib/error-log';
import { errorLogRecordSchema } from '@/server/error-log/record-schema';
import { clientAddress } from '@/server/edge/client-address.mjs';
import { rateLimitKey } from '@/server/edge/client-address.mjs';
import { storeErrorLog, type StoreOptions, type StoreOutcome } from '@/server/error-log/store';
import { failure, readJsonBody, type HandlerResult } from '@/server/base/http';
import { createRateLimiter, type RateLimitDecision, type RateLimiter } from '@/server/base/rate-limiter';

/**
 * Per client address. The browser logger sends at most 5 a minute per page load; this leaves room
 * for a visitor who moves between a few pages, and stops a script flooding the database.
 */
const ERROR_LOG_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;

/**
 * New rows of the error log that visitors may add an hour: together, and each client (by its rate-limit
 * key) of that. A report repeating a stored row (the same message, category and path) is not charged:
 * it adds one to that row's count, so an outage that every visitor's browser reports is one row with a
 * large count however many report it. A client that sends varied reports adds at most `perClient` rows
 * an hour; it takes `total / perClient` clients to spend the budget, and beyond it new reports are
 * refused (429, as the per-address limit answers) and counted (dropped reports: one server entry per
 * DROPPED_REPORT_DELAY_MS). A real site sees a handful of distinct failures an hour.
 */
const VISITOR_NEW_ROWS_PER_HOUR = { total: 100, perClient: 20 } as const;

/** How long after the first dropped report the server's entry counting them is written. */
const DROPPED_REPORT_DELAY_MS = 10 * 60_000;

const HOUR_MS = 60 * 60_000;

type Store = (record: ErrorLogRecord, options: StoreOptions & { reportedBy: 'visitor'; clientAddress: string }) => Promise<StoreOutcome>;
type ServerEntry = (record: ErrorLogRecord) => Promise<unknown>;

const tooMany = (retryAfterSeconds: number) =>
  failure(429, 'Too many error reports. Please try again later.', {}, { 'Retry-After': String(retryAfterSeconds) });

/**
 * POST /api/error-logs in the CRM's contract: 201 when stored (or counted on a stored row), a 4xx for
 * anything wrong with the request. `flushDropped` writes the count of dropped reports now (the tests).
 */
export function createErrorLogIntake({
  limiter = createRateLimiter(ERROR_LOG_RATE_LIMIT),
  newRows = createRateLimiter({ limit: VISITOR_NEW_ROWS_PER_HOUR.total, windowMs: HOUR_MS }),
  newRowsPerClient = createRateLimiter({ limit: VISITOR_NEW_ROWS_PER_HOUR.perClient, windowMs: HOUR_MS }),
  store = storeErrorLog,
  serverEntry = (record: ErrorLogRecord) => storeErrorLog(record, { reportedBy: 'server', clientAddress: 'server' }),
  dropDelayMs = DROPPED_REPORT_DELAY_MS,
}: {
  limiter?: RateLimiter;
  newRows?: RateLimiter;
  newRowsPerClient?: RateLimiter;
  store?: Store;
  serverEntry?: ServerEntry;
  dropDelayMs?: number;
} = {}) {
  const droppedReports = countDroppedReports(serverEntry, dropDelayMs);

  async function receiveErrorLog(request: Request): Promise<HandlerResult> {
    const address = clientAddress(request.headers);
    const key = rateLimitKey(address);
    const decision = limiter.hit(key);
    if (!decision.allowed) return tooMany(decision.retryAfterSeconds);

    const read = await readRecord(request);
    if (!read.ok) return read.response;
    const record = read.record;

    // Charged only when the report adds a row; checked and charged in one step (no await between).
    let refused: RateLimitDecision | undefined;
    const mayAddRow = () => {
      const perClient = newRowsPerClient.peek(key);
      const total = newRows.peek('visitors');
      refused = !perClient.allowed ? perClient : !total.allowed ? total : undefined;
      if (refused) return false;
      newRowsPerClient.hit(key);
      newRows.hit('visitors');
      return true;
    };

    let outcome: StoreOutcome;
    try {
      // Stored as a visitor's report whatever source or level it claims, so it cannot pass for the server's own.
      outcome = await store(record, { reportedBy: 'visitor', clientAddress: address, mayAddRow });
    } catch (error) {
      // Not the visitor's doing.
      console.error('[error-logs] Could not store an error log entry:', error);
      return failure(503, 'The error log could not be stored right now.', {}, { 'Retry-After': '30' });
    }
    if (!outcome.stored) {
      droppedReports.count();
      const budget = refused as RateLimitDecision | undefined;
      return tooMany(budget && !budget.allowed ? budget.retryAfterSeconds : 60);
    }
    return { status: 201, body: { success: true, id: outcome.id } };
  }

  return Object.assign(receiveErrorLog, { flushDropped: droppedReports.flush });
}

/** The body as an error log record: JSON within its size, valid, and fit to store as JSON text; or the response that refuses it. */
async function readRecord(request: Request): Promise<{ ok: true; record: ErrorLogRecord } | { ok: false; response: HandlerResult }> {
  const refused = (...args: Parameters<typeof failure>) => ({ ok: false as const, response: failure(...args) });
  const body = await readJsonBody(request, MAX_ERROR_LOG_BYTES);
  if (!body.ok) {
    const message = {
      415: 'Send the error log as application/json.',
      413: `The error log record is larger than ${MAX_ERROR_LOG_BYTES} bytes.`,
      400: 'The body is not valid JSON.',
    }[body.status];
    return refused(body.status, message);
  }
  const result = errorLogRecordSchema.safeParse(body.value);
  if (!result.success) {
    const errors = result.error.issues.map((issue) => ({ path: issue.path.join('.'), msg: issue.message }));
    return refused(422, 'The error log record is not valid.', { errors });
  }
  const record: ErrorLogRecord = result.data;
  try {
    // Stored as JSON text later; refuse now anything that cannot be (nested too deeply to stringify).
    JSON.stringify(record);
  } catch {
    return refused(400, 'The request body could not be read.');
  }
  return { ok: true, record };
}

/**
 * Reports over the budget for new rows, counted: the first starts a timer, and when it fires (or
 * `flush` is called) one server entry tells how many were not stored and since when.
 */
function countDroppedReports(serverEntry: ServerEntry, dropDelayMs: number) {
  let dropped = 0;
  let droppedSince: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function flush() {
    clearTimeout(timer);
    timer = undefined;
    if (dropped === 0 || !droppedSince) return;
    const [count, since] = [dropped, droppedSince];
    dropped = 0;
    droppedSince = null;
    const message =
      `${count} error report${count === 1 ? '' : 's'} from visitors not stored between ${since} and ${new Date().toISOString()}: ` +
      `over the budget for new entries (${VISITOR_NEW_ROWS_PER_HOUR.total} an hour from all visitors, ` +
      `${VISITOR_NEW_ROWS_PER_HOUR.perClient} per address). Reports repeating a stored entry were still counted.`;
    try {
      await serverEntry({
        application: LOG_APPLICATION,
        level: 'warning',
        message,
        source: 'backend',
        category: 'server',
        path: '/api/error-logs',
        method: 'POST',
      });
    } catch (error) {
      console.error(`[error-logs] ${message} (could not be stored:`, error instanceof Error ? error.message : error, ')');
    }
  }

  function count() {
    dropped += 1;
    if (timer) return;
    droppedSince = new Date().toISOString();
    console.log(`[error-logs] visitors' new error reports are over the hourly budget: not stored for now, counted in a server entry`);
    timer = setTimeout(() => void flush(), dropDelayMs);
    timer.unref?.();
  }

  return { count, flush };
}

export const receiveErrorLog = createErrorLogIntake();
