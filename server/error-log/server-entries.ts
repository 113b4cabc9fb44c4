import 'server-only';
import { createHash } from 'node:crypto';
import type { Instrumentation } from 'next';
import { LOG_APPLICATION, type ErrorLogRecord } from '@/lib/error-log';
import { capRecordSize } from '@/lib/error-log';
import { storeErrorLog, type StoreOptions, type StoreOutcome } from '@/server/error-log/store';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';

export const LOG_SOURCE_BACKEND = 'backend';

type Params = Parameters<Instrumentation.onRequestError>;

function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === 'LibsqlError' || (typeof code === 'string' && code.startsWith('SQLITE_'));
}

/** Builds the error-log record for a failure Next reports through onRequestError. */
export function serverErrorRecord(error: unknown, request: Params[1], context: Params[2]): ErrorLogRecord {
  const digest = typeof error === 'object' && error !== null && 'digest' in error ? String(error.digest) : undefined;
  const userAgent = request.headers['user-agent'];
  return capRecordSize({
    application: LOG_APPLICATION,
    level: 'error',
    message: (error instanceof Error ? error.message : String(error)) || 'Unknown server error',
    stack: error instanceof Error ? (error.stack ?? null) : null,
    metadata: {
      routePath: context.routePath,
      routeType: context.routeType,
      routerKind: context.routerKind,
      ...(context.renderSource ? { renderSource: context.renderSource } : {}),
      ...(digest ? { digest } : {}),
    },
    source: LOG_SOURCE_BACKEND,
    userId: null,
    statusCode: 500,
    category: isDatabaseError(error) ? 'database' : 'server',
    path: request.path,
    method: request.method,
    userAgent: Array.isArray(userAgent) ? userAgent.join(', ') : (userAgent ?? null),
  });
}

/**
 * New rows the server's request errors may add an hour. A failure that repeats one stored (its group
 * key) is not charged: it adds one to that row's count, so a route failing for every visitor is one row
 * with a large count. Beyond the budget a new failure is not stored but counted, in one server entry per
 * DROPPED_DELAY_MS. Anonymous requests reach these errors, so without it each 500 could add a row.
 */
const SERVER_NEW_ROWS_PER_HOUR = 30;

const DROPPED_DELAY_MS = 10 * 60_000;

const HOUR_MS = 60 * 60_000;

/**
 * One failure of the server: the same category and message on the same route (its pattern, such as
 * `/claims/[reference]`, so the addresses a visitor can vary make no new row). Namespaced apart from
 * the visitors' keys, so a visitor's report can never be counted on the server's row.
 */
export function serverErrorGroupKey(record: ErrorLogRecord): string {
  const metadata = record.metadata as { routePath?: unknown } | null | undefined;
  const route = typeof metadata?.routePath === 'string' ? metadata.routePath : (record.path ?? null);
  return createHash('sha256')
    .update(JSON.stringify(['server', record.category, route, record.message]))
    .digest('hex');
}

type Store = (record: ErrorLogRecord, options: StoreOptions & { reportedBy: 'server' }) => Promise<StoreOutcome>;

/** Records the server's request errors grouped and under a budget; `flushDropped` writes the count of dropped ones now (the tests). */
export function createServerErrorRecorder({
  store = storeErrorLog,
  newRows = createRateLimiter({ limit: SERVER_NEW_ROWS_PER_HOUR, windowMs: HOUR_MS }),
  dropDelayMs = DROPPED_DELAY_MS,
}: { store?: Store; newRows?: RateLimiter; dropDelayMs?: number } = {}) {
  let dropped = 0;
  let droppedSince: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function flushDropped() {
    clearTimeout(timer);
    timer = undefined;
    if (dropped === 0 || !droppedSince) return;
    const [count, since] = [dropped, droppedSince];
    dropped = 0;
    droppedSince = null;
    const message =
      `${count} server error${count === 1 ? '' : 's'} not stored between ${since} and ${new Date().toISOString()}: ` +
      `over the budget for new entries (${SERVER_NEW_ROWS_PER_HOUR} an hour); each is on the process output. ` +
      `Errors repeating a stored entry were still counted.`;
    const entry: ErrorLogRecord = {
      application: LOG_APPLICATION,
      level: 'warning',
      message,
      source: LOG_SOURCE_BACKEND,
      category: 'server',
    };
    try {
      await store(entry, { reportedBy: 'server', clientAddress: 'server' });
    } catch (error) {
      console.error(`[error-logs] ${message} (could not be stored:`, error instanceof Error ? error.message : error, ')');
    }
  }

  function countDropped() {
    dropped += 1;
    if (timer) return;
    droppedSince = new Date().toISOString();
    timer = setTimeout(() => void flushDropped(), dropDelayMs);
    timer.unref?.();
  }

  async function record(entry: ErrorLogRecord): Promise<StoreOutcome> {
    const mayAddRow = () => {
      if (!newRows.peek('server').allowed) return false;
      newRows.hit('server');
      return true;
    };
    const outcome = await store(entry, { reportedBy: 'server', clientAddress: 'server', groupKey: serverErrorGroupKey(entry), mayAddRow });
    if (!outcome.stored) countDropped();
    return outcome;
  }

  return Object.assign(record, { flushDropped });
}

const recordRequestError = createServerErrorRecorder();

/** What instrumentation.ts's onRequestError calls for each failure Next reports. */
export async function recordServerError(error: unknown, request: Params[1], context: Params[2]): Promise<void> {
  await recordRequestError(serverErrorRecord(error, request, context));
}
