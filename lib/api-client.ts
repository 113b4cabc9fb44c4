import { browserIsOffline, inBrowser } from '@/lib/browser';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
import type { LogCategory } from '@/lib/error-log';
import { ApiError, type ApiErrorKind } from '@/lib/api-error';

function classifyStatus(status: number): Exclude<ApiErrorKind, 'network'> {
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  return 'client';
}

const DEFAULT_TIMEOUT_MS = 15_000;

type ApiRequestOptions<T> = {
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
  /**
   * What a non-OK answer means to the caller ('Failed to fetch photos'): written to the console
   * beside the logged entry, so that the caller need not log the failure itself.
   */
  failureMessage?: string;
  /**
   * Called as the body goes up (bytes sent, bytes in all). Such a request is sent with
   * XMLHttpRequest, the one browser API that reports upload progress, and is given up only when it
   * stops moving for `stallTimeoutMs` (a slow phone uploading steadily is never cut off).
   */
  onUploadProgress?: (sent: number, total: number) => void;
  stallTimeoutMs?: number;
  /**
   * Reads an OK answer's body into what the caller uses. `null` is a body the caller cannot use: logged
   * here (category client, with `message` and the caller's `component`) and thrown as an ApiError of
   * kind 'client' with no status.
   */
  expect?: { read: (data: unknown) => T | null; message: string; component: string };
};

export type ApiResponse<T> = { status: number; data: T };

/** How long an upload may go without progress (or without an answer once sent) before it counts as lost. */
const DEFAULT_STALL_TIMEOUT_MS = 45_000;

type UploadInit = RequestInit & { onUploadProgress: (sent: number, total: number) => void; stallTimeoutMs: number };

/** A `fetch` over XMLHttpRequest for a body whose upload progress is wanted; it answers a real Response. */
export function uploadWithProgress(url: string, init: UploadInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let stall: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(stall);
      init.signal?.removeEventListener('abort', onAbort);
    };
    const restartStallTimer = () => {
      clearTimeout(stall);
      stall = setTimeout(() => {
        xhr.abort();
        settle();
        reject(new DOMException(`No progress for ${init.stallTimeoutMs} ms`, 'TimeoutError'));
      }, init.stallTimeoutMs);
    };
    const onAbort = () => {
      xhr.abort();
      settle();
      reject(init.signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    if (init.signal?.aborted) return onAbort();
    init.signal?.addEventListener('abort', onAbort);
    xhr.open(init.method ?? 'POST', url);
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      restartStallTimer();
      init.onUploadProgress(event.loaded, event.lengthComputable ? event.total : event.loaded);
    };
    xhr.upload.onload = restartStallTimer;
    xhr.onload = () => {
      settle();
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const nullBody = xhr.status === 204 || xhr.status === 304;
      resolve(new Response(nullBody ? null : xhr.responseText, { status: xhr.status, headers }));
    };
    xhr.onerror = () => {
      settle();
      reject(new TypeError('Network request failed'));
    };
    restartStallTimer();
    xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

/** A Retry-After header's delay in whole seconds (delta-seconds or an HTTP date), when it has one. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

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
    const parsed = new URL(url, inBrowser() ? window.location.href : 'http://localhost');
    return parsed.pathname;
  } catch {
    return url;
  }
}

function currentPage() {
  return inBrowser() ? window.location.pathname : undefined;
}

/** What the log entries of a failed request say about it. */
type RequestFacts = { log: Logger; url: string; method: NonNullable<ApiRequestOptions<unknown>['method']>; path: string };

/** The request's own time limits and the caller's signal, which tell a time-out from a cancel. */
type RequestLimits = { timeout: AbortSignal; timeoutMs: number; stallTimeoutMs: number; signal?: AbortSignal };

/** No response, or no whole body: a network ApiError saying why, logged unless the caller cancelled it. */
function networkFailure(cause: unknown, { log, url, method, path }: RequestFacts, limits: RequestLimits): ApiError {
  const { timeout, timeoutMs, stallTimeoutMs, signal } = limits;
  const timedOut = timeout.aborted || (cause instanceof Error && cause.name === 'TimeoutError' && !signal?.aborted);
  const cancelled = !timedOut && signal?.aborted === true;
  const offline = browserIsOffline();
  const message = timedOut
    ? `Request timeout after ${timeout.aborted ? timeoutMs : stallTimeoutMs} ms${timeout.aborted ? '' : ' without progress'}`
    : cancelled
      ? 'Request aborted by the caller'
      : offline
        ? 'Network Error: the browser is offline'
        : `Network Error: ${cause instanceof Error ? cause.message : String(cause)}`;
  const error = new ApiError(message, { kind: 'network', cause, cancelled });
  // A caller cancelling its own request (the visitor left the page) is not a failure to report.
  if (!cancelled) {
    log.error(message, {
      category: 'network',
      method,
      path,
      error: cause,
      metadata: { url, page: currentPage(), timedOut, offline },
    });
  }
  return error;
}

/** A non-OK response as an ApiError with its status and body, logged unless it is a 4xx the caller handles. */
function statusFailure(
  response: Response,
  data: unknown,
  { log, url, method, path }: RequestFacts,
  options: Pick<ApiRequestOptions<unknown>, 'skipErrorLogging' | 'failureMessage'>,
): ApiError {
  const kind = classifyStatus(response.status);
  const error = new ApiError(`HTTP ${response.status} from ${method} ${path}`, {
    kind,
    status: response.status,
    body: data,
    retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
  });
  const isClientSide = response.status >= 400 && response.status < 500;
  if (!(options.skipErrorLogging && isClientSide)) {
    const category: LogCategory = kind;
    log.error(error.message, { category, statusCode: response.status, method, path, metadata: { url, page: currentPage() } });
    // One remote entry per failure: the caller's words go to the console only.
    if (options.failureMessage) log.error(options.failureMessage, { error, localOnly: true, metadata: { url } });
  }
  return error;
}

export function createApiClient(
  log: Logger = defaultLogger,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
  uploadImpl: typeof uploadWithProgress = uploadWithProgress,
) {
  return async function apiRequest<T = unknown>(url: string, options: ApiRequestOptions<T> = {}): Promise<ApiResponse<T>> {
    const method = options.method ?? (options.json === undefined && options.formData === undefined ? 'GET' : 'POST');
    const { onUploadProgress } = options;
    // An upload with progress is bounded by its stall time-out instead (a slow phone may need minutes).
    const timeoutMs = options.timeoutMs ?? (onUploadProgress ? 60 * 60_000 : DEFAULT_TIMEOUT_MS);
    const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    const facts: RequestFacts = { log, url, method, path: requestPath(url) };

    let response: Response;
    let data: unknown;
    try {
      const init = {
        method,
        headers,
        body: options.formData ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
        signal,
      };
      response = await (onUploadProgress ? uploadImpl(url, { ...init, onUploadProgress, stallTimeoutMs }) : fetchImpl(url, init));
      // The timeout covers the body too: a stalled body is a network failure, not an empty response.
      data = await readJson(response);
    } catch (cause) {
      throw networkFailure(cause, facts, { timeout, timeoutMs, stallTimeoutMs, signal: options.signal });
    }

    if (!response.ok) throw statusFailure(response, data, facts, options);
    if (!options.expect) return { status: response.status, data: data as T };
    const read = options.expect.read(data);
    if (read === null) {
      const error = new ApiError(options.expect.message, { kind: 'client' });
      // A caller that gave up on the response (the visitor left) has nothing to report.
      if (!options.signal?.aborted)
        log.error(error.message, { category: 'client', error, metadata: { component: options.expect.component } });
      throw error;
    }
    return { status: response.status, data: read };
  };
}

/** Every browser call to an API goes through this. */
export const apiRequest = createApiClient();
