import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_ERROR_LOG_BYTES, type ErrorLogRecord } from '@/lib/error-log';
import { errorLogRecordSchema } from '@/server/error-log/record-schema';
import { capRecordSize } from '@/lib/error-log';
import { createLogger, inferCategory } from '@/lib/logger';

function fakeConsole() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

function setup(overrides: { send?: (url: string, body: string) => Promise<unknown> } = {}) {
  const out = fakeConsole();
  const sent: ErrorLogRecord[] = [];
  const send = vi.fn(
    overrides.send ??
      (async (_url: string, body: string) => {
        sent.push(JSON.parse(body) as ErrorLogRecord);
        return new Response(null, { status: 201 });
      }),
  );
  const logger = createLogger({
    endpoint: 'https://crm.example/api/error-logs',
    send,
    console: out,
    context: () => ({ path: '/contact', userAgent: 'TestAgent/1.0' }),
  });
  return { logger, out, send, sent };
}

const byteSize = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const rateLimitWarnings = (out: ReturnType<typeof fakeConsole>) =>
  out.warn.mock.calls.filter(([text]) => String(text).includes('rate limit')).length;

describe('inferCategory', () => {
  it('is network when the message mentions Network Error or a timeout', () => {
    expect(inferCategory({ message: 'Network Error' })).toBe('network');
    expect(inferCategory({ message: 'Request timeout after 15000 ms' })).toBe('network');
    expect(inferCategory({ message: 'the request TIMED OUT' })).toBe('network');
  });

  it('is network for a connection-abort code', () => {
    expect(inferCategory({ message: 'something failed', code: 'ECONNABORTED' })).toBe('network');
    expect(inferCategory({ message: 'something failed', code: 'AbortError' })).toBe('network');
  });

  it('is auth on HTTP 401 and 403', () => {
    expect(inferCategory({ message: 'HTTP 401', statusCode: 401 })).toBe('auth');
    expect(inferCategory({ message: 'HTTP 403', statusCode: 403 })).toBe('auth');
  });

  it('is client otherwise', () => {
    expect(inferCategory({ message: 'Cannot read properties of undefined' })).toBe('client');
    expect(inferCategory({ message: 'HTTP 404', statusCode: 404 })).toBe('client');
    expect(inferCategory({ message: 'HTTP 500', statusCode: 500 })).toBe('client');
  });

  it('prefers network over auth when both apply', () => {
    expect(inferCategory({ message: 'Network Error', statusCode: 401 })).toBe('network');
  });
});

describe('the record', () => {
  it("has exactly the error-log record's fields, application homecare-web and source frontend", async () => {
    const { logger, sent } = setup();
    const thrown = new Error('boom');
    logger.error('Something broke', { error: thrown, metadata: { widget: 'gallery' }, statusCode: 500, method: 'get' });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const record = sent[0]!;
    expect(Object.keys(record).sort()).toEqual(
      [
        'application',
        'category',
        'level',
        'message',
        'metadata',
        'method',
        'path',
        'source',
        'stack',
        'statusCode',
        'userAgent',
        'userId',
      ].sort(),
    );
    expect(record).toMatchObject({
      application: 'homecare-web',
      source: 'frontend',
      level: 'error',
      message: 'Something broke',
      category: 'client',
      statusCode: 500,
      method: 'GET',
      path: '/contact',
      userAgent: 'TestAgent/1.0',
      userId: null,
      metadata: { widget: 'gallery' },
    });
    expect(record.stack).toContain('boom');
    expect(errorLogRecordSchema.safeParse(record).success).toBe(true);
  });

  it('carries requestPayload when given and lets the caller set source and category', async () => {
    const { logger, sent } = setup();
    logger.info('Contact form sent', { source: 'contact-form', category: 'client', requestPayload: { subject: 'Leak' } });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ level: 'info', source: 'contact-form', requestPayload: { subject: 'Leak' } });
  });

  it('infers the category from the thrown error', async () => {
    const { logger, sent } = setup();
    logger.error('Upload failed', { error: Object.assign(new Error('socket hang up'), { code: 'ECONNABORTED' }) });
    logger.error('Forbidden', { statusCode: 403 });
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((record) => record.category)).toEqual(['network', 'auth']);
  });

  it('survives metadata JSON cannot represent', async () => {
    const { logger, sent } = setup();
    const circular: Record<string, unknown> = { name: 'loop', big: 10n, fn: () => 1 };
    circular.self = circular;
    expect(() => logger.error('Odd metadata', { metadata: circular })).not.toThrow();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.metadata).toEqual({ name: 'loop', big: '10', self: '[circular]' });
  });
});

describe('console mirroring', () => {
  it('writes every entry to the console at the matching level', () => {
    const { logger, out } = setup();
    logger.info('an info');
    logger.warning('a warning');
    logger.error('an error');
    logger.critical('a critical');
    expect(out.info).toHaveBeenCalledWith('[info] an info', expect.objectContaining({ level: 'info' }));
    expect(out.warn).toHaveBeenCalledWith('[warning] a warning', expect.objectContaining({ level: 'warning' }));
    expect(out.error).toHaveBeenCalledWith('[error] an error', expect.objectContaining({ level: 'error' }));
    expect(out.error).toHaveBeenCalledWith('[critical] a critical', expect.objectContaining({ level: 'critical' }));
  });

  it('keeps localOnly entries in the console', () => {
    const { logger, out, send } = setup();
    logger.error('logging itself failed', { localOnly: true });
    expect(out.error).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
  });
});

describe('the remote cap: 5 entries per 60-second window', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-05T09:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('skips the sixth with a console warning and sends a seventh once the window has passed', async () => {
    const { logger, out, send } = setup();
    for (let index = 1; index <= 5; index += 1) {
      logger.error(`error ${index}`);
      vi.advanceTimersByTime(1_000);
    }
    expect(send).toHaveBeenCalledTimes(5);
    expect(rateLimitWarnings(out)).toBe(0);

    logger.error('error 6');
    expect(send).toHaveBeenCalledTimes(5);
    expect(rateLimitWarnings(out)).toBe(1);
    expect(out.error).toHaveBeenCalledWith('[error] error 6', expect.anything());

    // The first entry went out at 09:00:00; 60 s after it the window has room again.
    vi.setSystemTime(new Date('2026-01-05T09:01:00Z'));
    logger.error('error 7');
    expect(send).toHaveBeenCalledTimes(6);
    expect(JSON.parse(send.mock.calls[5]![1])).toMatchObject({ message: 'error 7' });
  });

  it('counts entries across levels', () => {
    const { logger, send } = setup();
    logger.info('1');
    logger.warning('2');
    logger.error('3');
    logger.critical('4');
    logger.info('5');
    logger.critical('6');
    expect(send).toHaveBeenCalledTimes(5);
  });
});

describe('remote failures', () => {
  it('a rejected POST is only written to the console and sends nothing more', async () => {
    const { logger, out, send } = setup({ send: () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(() => logger.error('first')).not.toThrow();
    await vi.waitFor(() =>
      expect(out.warn).toHaveBeenCalledWith(expect.stringContaining('Remote error logging failed'), expect.any(TypeError)),
    );
    expect(send).toHaveBeenCalledTimes(1);
    expect(out.error).toHaveBeenCalledTimes(1);
  });

  it('a non-OK answer is only written to the console', async () => {
    const { logger, out, send } = setup({ send: async () => new Response('{}', { status: 503 }) });
    logger.critical('first');
    await vi.waitFor(() => expect(out.warn).toHaveBeenCalledWith(expect.stringContaining('HTTP 503')));
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('a send that throws synchronously does not escape', () => {
    const { logger, out } = setup({
      send: () => {
        throw new Error('no fetch here');
      },
    });
    expect(() => logger.error('first')).not.toThrow();
    expect(out.warn).toHaveBeenCalledWith(expect.stringContaining('Remote error logging failed'), expect.any(Error));
  });

  it('posts JSON with keepalive by default', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 201 }));
    const logger = createLogger({ endpoint: '/api/error-logs', console: fakeConsole() });
    logger.error('unloading');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/error-logs',
      expect.objectContaining({ method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' } }),
    );
  });
});

describe('size cap', () => {
  it('keeps every record within MAX_ERROR_LOG_BYTES and valid for the endpoint', async () => {
    const { logger, sent } = setup();
    const huge = 'x'.repeat(200_000);
    logger.error(huge, { stack: huge, metadata: { blob: huge }, requestPayload: { blob: huge }, userAgent: huge, path: `/${huge}` });
    // Characters that JSON escapes to six bytes each, and four-byte characters.
    logger.error('\u0001'.repeat(5_000), { stack: '😀'.repeat(5_000), userAgent: '\u0002'.repeat(2_000) });
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    for (const record of sent) {
      expect(byteSize(record)).toBeLessThanOrEqual(MAX_ERROR_LOG_BYTES);
      expect(errorLogRecordSchema.safeParse(record).success).toBe(true);
    }
    expect(sent[0]!.message.endsWith('…')).toBe(true);
    expect(sent[0]!.requestPayload).toBe('[omitted: too large]');
    expect(sent[0]!.metadata).toEqual({ omitted: 'too large' });
  });

  it('leaves a small record untouched', () => {
    const record: ErrorLogRecord = {
      application: 'homecare-web',
      level: 'error',
      message: 'short',
      source: 'frontend',
      category: 'client',
    };
    expect(capRecordSize(record)).toEqual(record);
  });
});

describe("a claim link's token", () => {
  it('is cut from every part of an entry before it is sent or shown', () => {
    const token = '42.AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const { logger, sent, out } = setup();
    logger.error(`HTTP 500 from POST /api/claims/photos/${token}`, {
      path: `/track/${token}`,
      metadata: { url: `https://www.example.com/claim-update/${token}` },
      stack: `at /track/${token}`,
    });
    expect(sent).toEqual([
      expect.objectContaining({
        message: 'HTTP 500 from POST /api/claims/photos/',
        path: '/track/',
        metadata: { url: 'https://www.example.com/claim-update/' },
        stack: 'at /track/',
      }),
    ]);
    expect(JSON.stringify([sent, out.error.mock.calls])).not.toContain(token.split('.')[1]);
  });
});
