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

export function createLogger(options: LoggerOptions) {
  const out = options.console ?? console;
  const now = options.now ?? Date.now;
  const send =
    options.send ??
    ((url: string, body: string) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true }));
  const sentAt: number[] = [];

  function takeRemoteSlot(): boolean {
    const windowStart = now() - REMOTE_LOG_WINDOW_MS;
    while (sentAt.length > 0 && (sentAt[0] ?? 0) <= windowStart) sentAt.shift();
    if (sentAt.length >= REMOTE_LOG_LIMIT) return false;
    sentAt.push(now());
    return true;
  }

  function buildAndSend(level: LogLevel, message: string, fields: LogFields): ErrorLogRecord {
    const { error, localOnly, ...recordFields } = fields;
    const thrown = describeThrown(error);
    const context = options.context?.() ?? {};
    const statusCode = recordFields.statusCode;
    const record = capRecordSize(
      recordWithoutLinkTokens({
        application: LOG_APPLICATION,
        level,
        message: message.trim() ? message : thrown.message?.trim() ? thrown.message : 'Unknown error',
        stack: recordFields.stack ?? thrown.stack ?? null,
        metadata: safeMetadata(recordFields.metadata),
        source: truncate(recordFields.source?.trim() || LOG_SOURCE_FRONTEND, 100),
        userId: recordFields.userId ? truncate(recordFields.userId, 200) : null,
        statusCode:
          typeof statusCode === 'number' && Number.isInteger(statusCode) && statusCode >= 0 && statusCode <= 999 ? statusCode : null,
        category: recordFields.category ?? inferCategory({ message: `${message} ${thrown.message ?? ''}`, code: thrown.code, statusCode }),
        path: recordFields.path ?? context.path ?? null,
        method: recordFields.method ? truncate(recordFields.method.toUpperCase(), 16) : null,
        requestPayload: recordFields.requestPayload === undefined ? undefined : toJsonSafe(recordFields.requestPayload),
        userAgent: recordFields.userAgent ?? context.userAgent ?? null,
      }),
    );

    const mirror = level === 'info' ? out.info : level === 'warning' ? out.warn : out.error;
    mirror.call(out, `[${level}] ${record.message}`, record);

    if (localOnly) return record;
    if (!takeRemoteSlot()) {
      out.warn(
        `[logger] Remote error logging rate limit reached (${REMOTE_LOG_LIMIT} per ${REMOTE_LOG_WINDOW_MS / 1000}s); entry not sent.`,
      );
      return record;
    }
    try {
      void Promise.resolve(send(options.endpoint, JSON.stringify(record))).then(
        (response) => {
          const answer = response as { ok?: unknown; status?: unknown } | undefined;
          if (answer && typeof answer === 'object' && answer.ok === false) {
            out.warn(`[logger] Remote error logging answered HTTP ${String(answer.status)}; entry kept in the console only.`);
          }
        },
        (sendError: unknown) => out.warn('[logger] Remote error logging failed; entry kept in the console only.', sendError),
      );
    } catch (sendError) {
      out.warn('[logger] Remote error logging failed; entry kept in the console only.', sendError);
    }
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
