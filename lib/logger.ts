import { inBrowser } from '@/lib/browser';
import { capRecordSize, recordWithoutLinkTokens, truncate } from '@/lib/error-log';
import { crmBaseUrl } from '@/lib/public-env';
import { LOG_APPLICATION, LOG_SOURCE_FRONTEND, type ErrorLogRecord, type LogCategory, type LogLevel } from '@/lib/error-log';

const REMOTE_LOG_LIMIT = 5;
const REMOTE_LOG_WINDOW_MS = 60_000;

const CONNECTION_ABORT_CODES = new Set([
  'ECONNABORTED',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ERR_NETWORK',
  'AbortError',
  'TimeoutError',
]);

/** The error log's category: network on Network Error/timeout/connection-abort code, auth on 401/403, otherwise client. */
export function inferCategory(input: { message?: string; code?: string; statusCode?: number | null }): LogCategory {
  const message = input.message ?? '';
  if (/network error|timeout|timed out/i.test(message) || (input.code && CONNECTION_ABORT_CODES.has(input.code))) {
    return 'network';
  }
  if (input.statusCode === 401 || input.statusCode === 403) return 'auth';
  return 'client';
}

type LogFields = Partial<Omit<ErrorLogRecord, 'application' | 'level' | 'message'>> & {
  /** An Error (or anything thrown) to take the stack and a code from. */
  error?: unknown;
  /** Write to the console only; used for problems with the logging itself. */
  localOnly?: boolean;
};

type ConsoleLike = Pick<Console, 'info' | 'warn' | 'error'>;

type LoggerOptions = {
  endpoint: string;
  send?: (url: string, body: string) => Promise<unknown>;
  now?: () => number;
  console?: ConsoleLike;
  context?: () => { path?: string; userAgent?: string };
};

/**
 * A JSON-safe copy of anything a caller puts in metadata or requestPayload: Errors become plain
 * objects, cycles, functions, symbols and BigInts are described instead of making JSON.stringify throw.
 */
function toJsonSafe(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (depth >= 8) return '[omitted: nested too deeply]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (Array.isArray(value)) return value.map((item) => toJsonSafe(item, depth + 1, seen) ?? null);
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const safe = toJsonSafe(item, depth + 1, seen);
      if (safe !== undefined) copy[key] = safe;
    }
    return copy;
  } catch {
    return '[unreadable]';
  } finally {
    seen.delete(value);
  }
}

function safeMetadata(metadata: unknown): Record<string, unknown> | null {
  if (metadata === null || metadata === undefined) return null;
  const safe = toJsonSafe(metadata);
  return safe !== null && typeof safe === 'object' && !Array.isArray(safe) ? (safe as Record<string, unknown>) : { value: safe };
}

function describeThrown(error: unknown): { stack?: string; code?: string; message?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { stack: error.stack, code: typeof code === 'string' ? code : error.name, message: error.message };
  }
  if (error === undefined || error === null) return {};
  try {
    return { message: typeof error === 'string' ? error : (JSON.stringify(toJsonSafe(error)) ?? String(error)) };
  } catch {
    return { message: Object.prototype.toString.call(error) };
  }
}

type LogContext = ReturnType<NonNullable<LoggerOptions['context']>>;

/** The error log record of one entry: the caller's fields made safe, filled from what was thrown and the page's context. */
function recordOf(level: LogLevel, message: string, fields: LogFields, context: LogContext): ErrorLogRecord {
  const thrown = describeThrown(fields.error);
  const statusCode = fields.statusCode;
  return capRecordSize(
    recordWithoutLinkTokens({
      application: LOG_APPLICATION,
      level,
      message: message.trim() ? message : thrown.message?.trim() ? thrown.message : 'Unknown error',
      stack: fields.stack ?? thrown.stack ?? null,
      metadata: safeMetadata(fields.metadata),
      source: truncate(fields.source?.trim() || LOG_SOURCE_FRONTEND, 100),
      userId: fields.userId ? truncate(fields.userId, 200) : null,
      statusCode:
        typeof statusCode === 'number' && Number.isInteger(statusCode) && statusCode >= 0 && statusCode <= 999 ? statusCode : null,
      category: fields.category ?? inferCategory({ message: `${message} ${thrown.message ?? ''}`, code: thrown.code, statusCode }),
      path: fields.path ?? context.path ?? null,
      method: fields.method ? truncate(fields.method.toUpperCase(), 16) : null,
      requestPayload: fields.requestPayload === undefined ? undefined : toJsonSafe(fields.requestPayload),
      userAgent: fields.userAgent ?? context.userAgent ?? null,
    }),
  );
}

/** The remote log's rate limit: true, and the slot taken, while fewer than REMOTE_LOG_LIMIT entries went in the last window. */
function remoteSlots(now: () => number): () => boolean {
  const sentAt: number[] = [];
  return function takeRemoteSlot(): boolean {
    const windowStart = now() - REMOTE_LOG_WINDOW_MS;
    while (sentAt.length > 0 && (sentAt[0] ?? 0) <= windowStart) sentAt.shift();
    if (sentAt.length >= REMOTE_LOG_LIMIT) return false;
    sentAt.push(now());
    return true;
  };
}

/** Posts a record to the error log without waiting; a failure or an HTTP error status is only warned about in the console. */
function sendRecord(send: NonNullable<LoggerOptions['send']>, endpoint: string, record: ErrorLogRecord, out: ConsoleLike) {
  try {
    void Promise.resolve(send(endpoint, JSON.stringify(record))).then(
      (result) => {
        const response = result as { ok?: unknown; status?: unknown } | undefined;
        if (response && typeof response === 'object' && response.ok === false) {
          out.warn(`[logger] Remote error logging answered HTTP ${String(response.status)}; entry kept in the console only.`);
        }
      },
      (sendError: unknown) => out.warn('[logger] Remote error logging failed; entry kept in the console only.', sendError),
    );
  } catch (sendError) {
    out.warn('[logger] Remote error logging failed; entry kept in the console only.', sendError);
  }
}

export function createLogger(options: LoggerOptions) {
  const out = options.console ?? console;
  const send =
    options.send ??
    ((url: string, body: string) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true }));
  const takeRemoteSlot = remoteSlots(options.now ?? Date.now);

  function buildAndSend(level: LogLevel, message: string, fields: LogFields): ErrorLogRecord {
    const record = recordOf(level, message, fields, options.context?.() ?? {});

    const mirror = level === 'info' ? out.info : level === 'warning' ? out.warn : out.error;
    mirror.call(out, `[${level}] ${record.message}`, record);

    if (fields.localOnly) return record;
    if (!takeRemoteSlot()) {
      out.warn(
        `[logger] Remote error logging rate limit reached (${REMOTE_LOG_LIMIT} per ${REMOTE_LOG_WINDOW_MS / 1000}s); entry not sent.`,
      );
      return record;
    }
    sendRecord(send, options.endpoint, record, out);
    return record;
  }

  /** Never throws: logging is called from error handlers, where a second failure must not escape. */
  function log(level: LogLevel, message: string, fields: LogFields = {}): ErrorLogRecord {
    try {
      return buildAndSend(level, typeof message === 'string' ? message : String(message), fields);
    } catch (failure) {
      const fallback: ErrorLogRecord = {
        application: LOG_APPLICATION,
        level,
        message: 'The logger could not record an entry',
        source: LOG_SOURCE_FRONTEND,
        category: 'client',
      };
      try {
        out.error('[logger] The logger could not record an entry.', failure);
      } catch {
        // Nothing left to report to.
      }
      return fallback;
    }
  }

  return {
    log,
    info: (message: string, fields?: LogFields) => log('info', message, fields),
    warning: (message: string, fields?: LogFields) => log('warning', message, fields),
    error: (message: string, fields?: LogFields) => log('error', message, fields),
    critical: (message: string, fields?: LogFields) => log('critical', message, fields),
  };
}

export type Logger = ReturnType<typeof createLogger>;

const errorLogEndpoint = `${crmBaseUrl}/api/error-logs`;

/** The browser's logger: posts to {NEXT_PUBLIC_CRM_URL}/api/error-logs. */
export const logger: Logger = createLogger({
  endpoint: errorLogEndpoint,
  context: () => (inBrowser() ? { path: window.location.pathname, userAgent: window.navigator.userAgent } : {}),
});
