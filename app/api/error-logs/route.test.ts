// Integration tests of the built-in POST /api/error-logs: the route handler itself, called with real
// Request objects, storing into a temporary SQLite database through the real migrations.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_ERROR_LOG_BYTES } from '@/lib/error-log';
import { getDb } from '@/server/base/db';
import { CLIENT_ADDRESS_HEADER } from '@/server/edge/client-address.mjs';

/** The rule: 20 reports a minute per client address. */
const ERROR_LOG_RATE_LIMIT = { limit: 20, windowMs: 60_000 };
const folder = mkdtempSync(path.join(tmpdir(), 'homecare-error-logs-'));
let POST: (request: Request) => Promise<Response>;

beforeAll(async () => {
  vi.stubEnv('DATABASE_URL', `file:${path.join(folder, 'site.db')}`);
  ({ POST } = await import('@/app/api/error-logs/route'));
});

// Keep the endpoint's structured stdout lines out of the test report.
const writeToStdout = process.stdout.write.bind(process.stdout);
beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) =>
    String(chunk).includes('"type":"error-log"') ? true : writeToStdout(chunk, ...rest)) as typeof process.stdout.write);
});

afterAll(async () => {
  (await getDb()).close();
  vi.unstubAllEnvs();
  rmSync(folder, { recursive: true, force: true });
});

let clientCounter = 0;
/** Each test posts from its own address, so the per-client limit of one test never affects another. */
function newClient() {
  clientCounter += 1;
  return `192.0.2.${clientCounter}`;
}

function post(body: string, { client, contentType = 'application/json' }: { client: string; contentType?: string | null }) {
  const headers = new Headers({ [CLIENT_ADDRESS_HEADER]: client });
  if (contentType) headers.set('content-type', contentType);
  return POST(new Request('http://localhost/api/error-logs', { method: 'POST', headers, body }));
}

const validRecord = {
  application: 'homecare-web',
  level: 'error',
  message: 'HTTP 500 from GET /api/gallery/public',
  stack: 'Error: HTTP 500\n    at apiRequest (app.js:1:1)',
  metadata: { url: '/api/gallery/public', page: '/gallery' },
  source: 'frontend',
  userId: null,
  statusCode: 500,
  category: 'server',
  path: '/api/gallery/public',
  method: 'GET',
  requestPayload: { attempt: 1 },
  userAgent: 'Mozilla/5.0 (test)',
};

async function rowsFrom(client: string) {
  const db = await getDb();
  return (await db.execute({ sql: 'SELECT * FROM error_logs WHERE client_address = ? ORDER BY id', args: [client] })).rows;
}

describe('POST /api/error-logs (built-in)', () => {
  it('stores a valid record, answers 201 and prints one structured line on stdout', async () => {
    const client = newClient();
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const response = await post(JSON.stringify(validRecord), { client });
    const lines = stdout.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('"type":"error-log"'));
    stdout.mockRestore();

    expect(response.status).toBe(201);
    const body = (await response.json()) as { success: boolean; id: number };
    expect(body).toEqual({ success: true, id: expect.any(Number) });

    const rows = await rowsFrom(client);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: body.id,
      application: 'homecare-web',
      level: 'error',
      category: 'server',
      source: 'frontend',
      message: validRecord.message,
      stack: validRecord.stack,
      status_code: 500,
      path: '/api/gallery/public',
      method: 'GET',
      user_agent: 'Mozilla/5.0 (test)',
    });
    expect(JSON.parse(String(rows[0]!.metadata))).toEqual(validRecord.metadata);
    expect(JSON.parse(String(rows[0]!.request_payload))).toEqual(validRecord.requestPayload);

    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    expect(lines[0]!.trimEnd()).not.toContain('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'error-log', level: 'error', message: validRecord.message, clientAddress: client });
  });

  it('accepts the minimal record', async () => {
    const client = newClient();
    const response = await post(
      JSON.stringify({
        application: 'homecare-web',
        level: 'critical',
        message: 'Render failed',
        source: 'error-boundary',
        category: 'client',
      }),
      { client },
    );
    expect(response.status).toBe(201);
    expect(await rowsFrom(client)).toHaveLength(1);
  });

  it.each([
    ['truncated JSON', '{"application": "homecare-web", "level":'],
    ['not JSON at all', 'level=error&message=hello'],
    ['an empty body', ''],
  ])('answers 400 for %s and stores nothing', async (_name, body) => {
    const client = newClient();
    const response = await post(body, { client });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: 'The body is not valid JSON.' });
    expect(await rowsFrom(client)).toHaveLength(0);
  });

  it.each([
    ['a numeric message', { ...validRecord, message: 42 }],
    ['an unknown level', { ...validRecord, level: 'fatal' }],
    ['an unknown category', { ...validRecord, category: 'disk' }],
    ['a string status code', { ...validRecord, statusCode: '500' }],
    ['metadata that is an array', { ...validRecord, metadata: ['a'] }],
    ['a missing source', { ...validRecord, source: undefined }],
    ['an array instead of a record', [validRecord]],
    ['null', null],
  ])('answers 422 for %s, naming the field, and stores nothing', async (_name, record) => {
    const client = newClient();
    const response = await post(JSON.stringify(record), { client });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { success: boolean; errors: { path: string; msg: string }[] };
    expect(body.success).toBe(false);
    expect(body.errors.length).toBeGreaterThan(0);
    expect(await rowsFrom(client)).toHaveLength(0);
  });

  it('answers 413 for an oversized body, declared or not', async () => {
    const client = newClient();
    const oversized = JSON.stringify({ ...validRecord, metadata: { blob: 'x'.repeat(MAX_ERROR_LOG_BYTES) } });
    const declared = await post(oversized, { client });
    expect(declared.status).toBe(413);

    // A streamed body carries no Content-Length; the cap still applies while reading.
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(oversized));
        controller.close();
      },
    });
    const streamed = await POST(
      new Request('http://localhost/api/error-logs', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: client },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(await rowsFrom(client)).toHaveLength(0);
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    const client = newClient();
    expect((await post(JSON.stringify(validRecord), { client, contentType: 'text/plain' })).status).toBe(415);
    expect((await post(JSON.stringify(validRecord), { client, contentType: null })).status).toBe(415);
    expect(await rowsFrom(client)).toHaveLength(0);
  });

  it('never answers 5xx for hostile bodies', async () => {
    const client = newClient();
    const deep = `{"application":"homecare-web","level":"error","message":"m","source":"s","category":"client","metadata":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const bodies = [deep, '\u0000', '{"__proto__": {"polluted": true}}', '"just a string"', '1e999', '{"message": "\\ud800"}'];
    for (const body of bodies) {
      const response = await post(body, { client: newClient() });
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(500);
    }
    const invalidUtf8 = await POST(
      new Request('http://localhost/api/error-logs', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: client },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      }),
    );
    expect(invalidUtf8.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`rate-limits each client to ${ERROR_LOG_RATE_LIMIT.limit} a minute with 429 and Retry-After`, async () => {
    const client = newClient();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let index = 0; index < ERROR_LOG_RATE_LIMIT.limit + 2; index += 1) {
      last = await post(JSON.stringify({ ...validRecord, message: `burst ${index}` }), { client });
      statuses.push(last.status);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(ERROR_LOG_RATE_LIMIT.limit);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Another client is unaffected.
    expect((await post(JSON.stringify(validRecord), { client: newClient() })).status).toBe(201);
    expect(await rowsFrom(client)).toHaveLength(ERROR_LOG_RATE_LIMIT.limit);
  });

  it('stores exactly as many rows as it accepted', async () => {
    const client = newClient();
    const bodies = [
      JSON.stringify(validRecord),
      '{not json',
      JSON.stringify({ ...validRecord, level: 'loud' }),
      JSON.stringify({ ...validRecord, message: 'second accepted' }),
      JSON.stringify({ ...validRecord, stack: 'x'.repeat(MAX_ERROR_LOG_BYTES + 1) }),
      JSON.stringify({ ...validRecord, level: 'info', message: 'third accepted' }),
    ];
    const statuses: number[] = [];
    for (const body of bodies) statuses.push((await post(body, { client })).status);
    expect(statuses).toEqual([201, 400, 422, 201, 413, 201]);
    const rows = await rowsFrom(client);
    expect(rows).toHaveLength(statuses.filter((status) => status === 201).length);
    expect(rows.map((row) => row.message)).toEqual([validRecord.message, 'second accepted', 'third accepted']);
  });
});

describe('what a visitor cannot do through the public endpoint', () => {
  it("stores a record claiming to be the server's own as a visitor's report, with the visitor's address", async () => {
    const client = newClient();
    const forged = {
      ...validRecord,
      source: 'backend',
      level: 'critical',
      message: 'Database corrupted\u001b[2J\u001b]52;c;ZXZpbA==\u0007',
    };
    expect((await post(JSON.stringify(forged), { client })).status).toBe(201);
    const rows = (
      await (
        await getDb()
      ).execute({ sql: 'SELECT reported_by, client_address, source, level FROM error_logs WHERE client_address = ?', args: [client] })
    ).rows;
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { reported_by: 'visitor', client_address: client, source: 'backend', level: 'critical' },
    ]);
  });
});
