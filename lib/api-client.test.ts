import { describe, expect, it, vi } from 'vitest';
import { classifyStatus, createApiClient } from '@/lib/api-client';
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

describe('classifyStatus', () => {
  it.each([
    [500, 'server'],
    [503, 'server'],
    [401, 'auth'],
    [403, 'auth'],
    [400, 'client'],
    [404, 'client'],
    [422, 'client'],
    [429, 'client'],
  ] as const)('HTTP %i is %s', (status, kind) => {
    expect(classifyStatus(status)).toBe(kind);
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
    expect(error).toMatchObject({ kind, status, body: { success: false, message: 'nope' }, logged: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ level: 'error', category: kind, statusCode: status, method: 'GET', path: '/api/gallery/public' });
  });

  it('with skipErrorLogging does not log a 4xx but still logs a 5xx', async () => {
    const client4xx = setup(answer(422, { success: false, errors: [] }));
    const error = await failure(client4xx.apiRequest('/api/contact', { method: 'POST', json: {}, skipErrorLogging: true }));
    expect(error).toMatchObject({ kind: 'client', status: 422, logged: false });
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
    expect(error).toMatchObject({ kind: 'network', logged: false });
    expect(sent).toHaveLength(0);
  });

  it('keeps a non-JSON error body as text', async () => {
    const { apiRequest } = setup(vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })));
    const error = await failure(apiRequest('/api/gallery/public'));
    expect(error.body).toBe('<html>Bad gateway</html>');
  });
});
