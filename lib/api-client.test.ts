import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, retryAfterSeconds, uploadWithProgress } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { createLogger } from '@/lib/logger';
import type { ErrorLogRecord } from '@/lib/error-log';

function setup(fetchImpl: typeof fetch) {
  const sent: ErrorLogRecord[] = [];
  const logger = createLogger({
    endpoint: '/api/error-logs',
    console: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    send: async (_url, body) => {
      sent.push(JSON.parse(body) as ErrorLogRecord);
    },
  });
  return { apiRequest: createApiClient(logger, fetchImpl), sent };
}

const answer = (status: number, body?: unknown) =>
  vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the kind of a failed answer', () => {
  it.each([
    [500, 'server'],
    [503, 'server'],
    [401, 'auth'],
    [403, 'auth'],
    [400, 'client'],
    [404, 'client'],
    [422, 'client'],
    [429, 'client'],
  ] as const)('HTTP %i is %s', async (status, kind) => {
    const { apiRequest } = setup(answer(status));
    expect((await failure(apiRequest('/api/contact'))).kind).toBe(kind);
  });
});

describe('apiRequest', () => {
  it('returns the parsed body of a successful answer and logs nothing', async () => {
    const { apiRequest, sent } = setup(answer(200, { data: [1, 2] }));
    await expect(apiRequest('/api/gallery/public')).resolves.toEqual({ status: 200, data: { data: [1, 2] } });
    expect(sent).toHaveLength(0);
  });

  it('sends json as a JSON POST body', async () => {
    const fetchImpl = answer(201, { success: true });
    const { apiRequest } = setup(fetchImpl);
    await apiRequest('/api/contact', { json: { name: 'Ann' } });
    expect(fetchImpl).toHaveBeenCalledWith(
      '/api/contact',
      expect.objectContaining({
        method: 'POST',
        body: '{"name":"Ann"}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json' }),
      }),
    );
  });

  it.each([
    [500, 'server'],
    [502, 'server'],
    [401, 'auth'],
    [403, 'auth'],
    [400, 'client'],
    [404, 'client'],
    [429, 'client'],
  ] as const)('HTTP %i: throws ApiError of kind %s and logs one entry of that category', async (status, kind) => {
    const { apiRequest, sent } = setup(answer(status, { success: false, message: 'nope' }));
    const error = await failure(apiRequest('https://crm.example/api/gallery/public'));
    expect(error).toMatchObject({ kind, status, body: { success: false, message: 'nope' } });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ level: 'error', category: kind, statusCode: status, method: 'GET', path: '/api/gallery/public' });
  });

  it("puts the caller's failureMessage in the console only, beside the one remote entry", async () => {
    const sent: ErrorLogRecord[] = [];
    const out = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const logger = createLogger({
      endpoint: '/x',
      console: out,
      send: async (_url, body) => void sent.push(JSON.parse(body) as ErrorLogRecord),
    });
    const apiRequest = createApiClient(logger, answer(500));
    await failure(apiRequest('/api/gallery/public', { failureMessage: 'Failed to fetch photos' }));
    expect(sent.map((entry) => entry.message)).toEqual(['HTTP 500 from GET /api/gallery/public']);
    expect(out.error.mock.calls.map(([line]) => line as string)).toEqual([
      '[error] HTTP 500 from GET /api/gallery/public',
      '[error] Failed to fetch photos',
    ]);
  });

  it('with skipErrorLogging does not log a 4xx but still logs a 5xx', async () => {
    const client4xx = setup(answer(422, { success: false, errors: [] }));
    const error = await failure(client4xx.apiRequest('/api/contact', { method: 'POST', json: {}, skipErrorLogging: true }));
    expect(error).toMatchObject({ kind: 'client', status: 422 });
    expect(client4xx.sent).toHaveLength(0);

    const client5xx = setup(answer(500));
    await failure(client5xx.apiRequest('/api/contact', { method: 'POST', json: {}, skipErrorLogging: true }));
    expect(client5xx.sent).toHaveLength(1);
    expect(client5xx.sent[0]).toMatchObject({ category: 'server', statusCode: 500, method: 'POST' });
  });

  it('a network failure is kind network, logged with category network', async () => {
    const { apiRequest, sent } = setup(vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const error = await failure(apiRequest('/api/gallery/public'));
    expect(error).toMatchObject({ kind: 'network', status: undefined });
    expect(error.message).toBe('Network Error: Failed to fetch');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ category: 'network', statusCode: null, method: 'GET', path: '/api/gallery/public' });
  });

  it('with skipErrorLogging still logs a network failure', async () => {
    const { apiRequest, sent } = setup(vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await failure(apiRequest('/api/contact', { json: {}, skipErrorLogging: true }));
    expect(sent).toHaveLength(1);
  });

  it('times out a request that does not answer', async () => {
    const hanging = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const { apiRequest, sent } = setup(hanging as unknown as typeof fetch);
    const error = await failure(apiRequest('/api/gallery/public', { timeoutMs: 30 }));
    expect(error).toMatchObject({ kind: 'network', message: 'Request timeout after 30 ms' });
    expect(sent[0]).toMatchObject({ category: 'network', metadata: expect.objectContaining({ timedOut: true }) });
  });

  it('does not report a request the caller cancelled', async () => {
    const controller = new AbortController();
    const hanging = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const { apiRequest, sent } = setup(hanging as unknown as typeof fetch);
    const pending = apiRequest('/api/gallery/public', { signal: controller.signal });
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({ kind: 'network', cancelled: true });
    expect(sent).toHaveLength(0);
  });

  it('keeps a non-JSON error body as text', async () => {
    const { apiRequest } = setup(vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })));
    const error = await failure(apiRequest('/api/gallery/public'));
    expect(error.body).toBe('<html>Bad gateway</html>');
  });
});

/** Just enough of XMLHttpRequest to drive uploadWithProgress: progress, an answer, a failure, an abort. */
class FakeXhr {
  static last: FakeXhr | undefined;
  upload: {
    onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
    onload: (() => void) | null;
  } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  headers: Record<string, string> = {};
  method = '';
  url = '';
  aborted = false;
  sent: unknown;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\nretry-after: 30\r\n';
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  answer(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.onload?.();
  }
}

describe('uploadWithProgress (XMLHttpRequest, for upload progress)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reports each progress event and answers a real Response with the status, body and headers', async () => {
    const seen: [number, number][] = [];
    const body = new FormData();
    const answer = uploadWithProgress('/api/contact', {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body,
      onUploadProgress: (sent, total) => seen.push([sent, total]),
      stallTimeoutMs: 45_000,
    });
    const xhr = FakeXhr.last!;
    expect(xhr).toMatchObject({ method: 'POST', url: '/api/contact', headers: { Accept: 'application/json' }, sent: body });
    xhr.progress(1000, 4000);
    xhr.progress(4000, 4000);
    xhr.answer(503, '{"success":false}');
    const response = await answer;
    expect(seen).toEqual([
      [1000, 4000],
      [4000, 4000],
    ]);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toEqual({ success: false });
  });

  it('a slow upload that keeps moving is never cut off; one that stops for the stall time-out is', async () => {
    const answer = uploadWithProgress('/api/contact', {
      method: 'POST',
      body: 'x',
      onUploadProgress: () => undefined,
      stallTimeoutMs: 10_000,
    });
    const xhr = FakeXhr.last!;
    for (let second = 1; second <= 60; second += 1) {
      vi.advanceTimersByTime(1_000);
      xhr.progress(second * 16_000, 60 * 16_000 + 1);
    }
    expect(xhr.aborted).toBe(false);
    const failed = answer.then(
      () => 'answered',
      (error: Error) => error.name,
    );
    vi.advanceTimersByTime(10_001);
    expect(await failed).toBe('TimeoutError');
    expect(xhr.aborted).toBe(true);
  });

  it('a network failure is a TypeError, as fetch gives; the caller aborting is the signal reason', async () => {
    const failed = uploadWithProgress('/api/contact', {
      method: 'POST',
      body: 'x',
      onUploadProgress: () => undefined,
      stallTimeoutMs: 10_000,
    });
    FakeXhr.last!.onerror?.();
    await expect(failed).rejects.toBeInstanceOf(TypeError);

    const controller = new AbortController();
    const cancelled = uploadWithProgress('/api/contact', {
      method: 'POST',
      body: 'x',
      signal: controller.signal,
      onUploadProgress: () => undefined,
      stallTimeoutMs: 10_000,
    });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last!.aborted).toBe(true);
  });
});

describe('apiRequest with upload progress', () => {
  it('goes through the upload transport; a cancel is a network ApiError marked cancelled and not logged', async () => {
    const sent: string[] = [];
    const logger = createLogger({
      endpoint: '/x',
      console: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      send: async (_u, b) => void sent.push(b),
    });
    const controller = new AbortController();
    const upload = vi.fn(
      (_url: string, init: { signal?: AbortSignal | null }) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
        ),
    );
    const apiRequest = createApiClient(logger, answer(200), upload as never);
    const pending = apiRequest('/api/contact', { formData: new FormData(), signal: controller.signal, onUploadProgress: () => undefined });
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({ kind: 'network', cancelled: true });
    expect(upload).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(0);
  });

  it('a busy answer carries its Retry-After in seconds', async () => {
    const apiRequest = createApiClient(
      createLogger({ endpoint: '/x', console: { info: vi.fn(), warn: vi.fn(), error: vi.fn() }, send: async () => undefined }),
      vi.fn(async () => new Response('{"success":false}', { status: 503, headers: { 'Retry-After': '30' } })),
    );
    expect(await failure(apiRequest('/api/contact', { json: {} }))).toMatchObject({ status: 503, retryAfterSeconds: 30 });
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    ['30', 30],
    [' 0 ', 0],
    ['Wed, 25 Nov 2026 10:00:30 GMT', 30],
    ['soon', undefined],
    [null, undefined],
  ] as const)('%s → %s', (value, seconds) => {
    expect(retryAfterSeconds(value, Date.parse('Wed, 25 Nov 2026 10:00:00 GMT'))).toBe(seconds);
  });
});

describe('on the server', () => {
  // Node has a `navigator` of its own since 21: a server-side failure must not be read as a browser offline.
  it('a request that fails is a network failure, never "the browser is offline", whatever the runtime’s navigator says', async () => {
    vi.stubGlobal('navigator', { onLine: false, userAgent: 'Node.js' });
    const refused = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const { apiRequest, sent } = setup(refused);
    try {
      await expect(apiRequest('http://crm.example/api/gallery/public')).rejects.toThrow('Network Error: fetch failed');
      await vi.waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]).toMatchObject({ category: 'network', message: 'Network Error: fetch failed' });
      expect(JSON.stringify(sent[0]!.metadata)).toContain('"offline":false');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
