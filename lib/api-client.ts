import { logger as defaultLogger, type Logger } from '@/lib/logger';
import type { LogCategory } from '@/lib/error-log';
import { ApiError, type ApiErrorKind } from '@/lib/api-error';

export function classifyStatus(status: number): Exclude<ApiErrorKind, 'network'> {
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  return 'client';
}

export const DEFAULT_TIMEOUT_MS = 15_000;

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as a JSON body with Content-Type application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (the browser writes the Content-Type with its boundary). */
  formData?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Do not log 4xx answers (the caller handles them as expected outcomes). */
  skipErrorLogging?: boolean;
};

export type ApiResponse<T> = { status: number; data: T };

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function requestPath(url: string) {
  try {
    const parsed = new URL(url, typeof window === 'undefined' ? 'http://localhost' : window.location.href);
    return parsed.pathname;
  } catch {
    return url;
  }
}

function currentPage() {
  return typeof window === 'undefined' ? undefined : window.location.pathname;
}

export function createApiClient(log: Logger = defaultLogger, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  return async function apiRequest<T = unknown>(url: string, options: ApiRequestOptions = {}): Promise<ApiResponse<T>> {
    const method = options.method ?? (options.json === undefined && options.formData === undefined ? 'GET' : 'POST');
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    const path = requestPath(url);

    let response: Response;
    let data: unknown;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        body: options.formData ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
        signal,
      });
      // The timeout covers the body too: a stalled body is a network failure, not an empty answer.
      data = await readJson(response);
    } catch (cause) {
      const timedOut = timeout.aborted;
      const cancelled = !timedOut && options.signal?.aborted === true;
      const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
      const message = timedOut
        ? `Request timeout after ${timeoutMs} ms`
        : cancelled
          ? 'Request aborted by the caller'
          : offline
            ? 'Network Error: the browser is offline'
            : `Network Error: ${cause instanceof Error ? cause.message : String(cause)}`;
      const error = new ApiError(message, { kind: 'network', cause });
      // A caller cancelling its own request (the visitor left the page) is not a failure to report.
      if (!cancelled) {
        log.error(message, {
          category: 'network',
          method,
          path,
          error: cause,
          metadata: { url, page: currentPage(), timedOut, offline },
        });
        error.logged = true;
      }
      throw error;
    }

    if (!response.ok) {
      const kind = classifyStatus(response.status);
      const error = new ApiError(`HTTP ${response.status} from ${method} ${path}`, { kind, status: response.status, body: data });
      const isClientSide = response.status >= 400 && response.status < 500;
      if (!(options.skipErrorLogging && isClientSide)) {
        const category: LogCategory = kind;
        log.error(error.message, { category, statusCode: response.status, method, path, metadata: { url, page: currentPage() } });
        error.logged = true;
      }
      throw error;
    }
    return { status: response.status, data: data as T };
  };
}

/** Every browser call to an API goes through this. */
export const apiRequest = createApiClient();
