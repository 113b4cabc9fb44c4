// The public error-log intake under floods: what one address, or many, can make it store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import type { ErrorLogRecord } from '@/lib/error-log';
import { createErrorLogIntake } from '@/server/error-log/intake';
import { storeErrorLog } from '@/server/error-log/store';
import { CLIENT_ADDRESS_HEADER } from '@/server/edge/client-address.mjs';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { tempDatabase } from '@/tests/support/enquiry-peers';

/** The rules: 20 reports a minute per address; 100 new rows an hour from all visitors, 20 per address. */
const ERROR_LOG_RATE_LIMIT = { limit: 20, windowMs: 60_000 };
const VISITOR_NEW_ROWS_PER_HOUR = { total: 100, perClient: 20 };

const record: ErrorLogRecord = {
  application: 'homecare-web',
  level: 'error',
  message: 'HTTP 500 from GET /api/gallery/public',
  stack: 'Error: HTTP 500\n    at apiRequest (app.js:1:1)',
  source: 'frontend',
  category: 'server',
  path: '/api/gallery/public',
  method: 'GET',
  userAgent: 'Mozilla/5.0 (test)',
};

let db: Client;
let cleanup: () => void;
let lines: string[];
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  lines = [];
});
afterEach(() => cleanup());

/** The intake over the test's database; its per-address limit generous unless a test wants it real. */
function intake(options: { perAddressLimit?: number } = {}) {
  return createErrorLogIntake({
    limiter: createRateLimiter({ limit: options.perAddressLimit ?? 1_000_000, windowMs: ERROR_LOG_RATE_LIMIT.windowMs }),
    store: (entry, storeOptions) => storeErrorLog(entry, { ...storeOptions, db, stdout: (line) => lines.push(line) }),
    serverEntry: (entry) => storeErrorLog(entry, { reportedBy: 'server', clientAddress: 'server', db, stdout: () => undefined }),
  });
}

function post(receive: ReturnType<typeof intake>, body: unknown, address: string) {
  return receive(
    new Request('http://localhost/api/error-logs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: address },
      body: JSON.stringify(body),
    }),
  );
}

const rows = async () =>
  (await db.execute('SELECT message, occurrences, client_address, reported_by FROM error_logs ORDER BY id')).rows.map((row) => ({
    ...row,
  }));
const visitorRows = async () => (await rows()).filter((row) => row.reported_by === 'visitor');

describe('a flood of identical reports', () => {
  it('is one row with the right count, its last address and one short stdout line per report', async () => {
    const receive = intake({ perAddressLimit: ERROR_LOG_RATE_LIMIT.limit });
    const statuses: number[] = [];
    for (let index = 0; index < 30; index += 1) statuses.push((await post(receive, record, '203.0.113.9')).status);
    // The per-address limit still applies: 20 a minute are taken, each counted.
    expect(statuses.filter((status) => status === 201)).toHaveLength(ERROR_LOG_RATE_LIMIT.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - ERROR_LOG_RATE_LIMIT.limit);
    expect(await rows()).toEqual([
      { message: record.message, occurrences: ERROR_LOG_RATE_LIMIT.limit, client_address: '203.0.113.9', reported_by: 'visitor' },
    ]);
    expect(lines).toHaveLength(ERROR_LOG_RATE_LIMIT.limit);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      type: 'error-log',
      occurrences: ERROR_LOG_RATE_LIMIT.limit,
      message: record.message,
    });
    expect(lines.every((line) => line.length < 500 && !line.includes('apiRequest'))).toBe(true);
  });

  it('from every visitor of an outage is one row whose count goes on after the budget for new rows is spent', async () => {
    const receive = intake();
    // Varied reports from many addresses spend the hour's budget for new rows first.
    for (let index = 0; index < VISITOR_NEW_ROWS_PER_HOUR.total; index += 1)
      expect((await post(receive, { ...record, message: `noise ${index}` }, `198.51.100.${index % 200}`)).status).toBe(201);
    expect((await post(receive, { ...record, message: 'one too many' }, '198.51.100.250')).status).toBe(429);
    // The outage: the same failure from 500 visitors, two reports each. It was first reported
    // before the budget ran out (by the first visitor, just now).
    await storeErrorLog(
      { ...record, message: 'Gallery failed' },
      { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: () => undefined },
    );
    for (let visitor = 0; visitor < 500; visitor += 1)
      for (const attempt of [1, 2])
        expect(
          (await post(receive, { ...record, message: 'Gallery failed', stack: `at ${attempt}` }, `10.1.${visitor >> 8}.${visitor & 255}`))
            .status,
        ).toBe(201);
    const outage = (await visitorRows()).filter((row) => row.message === 'Gallery failed');
    expect(outage).toEqual([{ message: 'Gallery failed', occurrences: 1001, client_address: '10.1.1.243', reported_by: 'visitor' }]);
    expect(await visitorRows()).toHaveLength(VISITOR_NEW_ROWS_PER_HOUR.total + 1);
  }, 60_000);
});

describe('a flood of varied reports', () => {
  it(`adds at most ${VISITOR_NEW_ROWS_PER_HOUR.perClient} rows an hour for one address (an IPv6 client by its /64)`, async () => {
    const receive = intake();
    const statuses: number[] = [];
    for (let index = 0; index < 60; index += 1)
      statuses.push((await post(receive, { ...record, message: `varied ${index}` }, `2001:db8:7:7::${index.toString(16)}`)).status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(VISITOR_NEW_ROWS_PER_HOUR.perClient);
    expect(statuses.slice(VISITOR_NEW_ROWS_PER_HOUR.perClient).every((status) => status === 429)).toBe(true);
    expect(await visitorRows()).toHaveLength(VISITOR_NEW_ROWS_PER_HOUR.perClient);
    // Reports it already made are still counted.
    expect((await post(receive, { ...record, message: 'varied 0' }, '2001:db8:7:7::99')).status).toBe(201);
    expect((await visitorRows())[0]).toMatchObject({ message: 'varied 0', occurrences: 2 });
  });

  it(`adds at most ${VISITOR_NEW_ROWS_PER_HOUR.total} rows an hour from all addresses, and the log says how many were dropped`, async () => {
    const receive = intake();
    let refused = 0;
    for (let index = 0; index < VISITOR_NEW_ROWS_PER_HOUR.total + 150; index += 1) {
      const response = await post(receive, { ...record, message: `varied ${index}` }, `198.51.${index >> 8}.${index & 255}`);
      if (response.status === 429) {
        refused += 1;
        expect(Number(response.headers?.['Retry-After'])).toBeGreaterThan(0);
      } else expect(response.status).toBe(201);
    }
    expect(refused).toBe(150);
    expect(await visitorRows()).toHaveLength(VISITOR_NEW_ROWS_PER_HOUR.total);
    await receive.flushDropped();
    const [summary] = (await rows()).filter((row) => row.reported_by === 'server');
    expect(String(summary?.message)).toMatch(/^150 error reports from visitors not stored between /);
    await receive.flushDropped();
    expect((await rows()).filter((row) => row.reported_by === 'server')).toHaveLength(1);
  }, 60_000);
});

describe('a genuine report after a flood from another address', () => {
  it('is stored as its own row, and a repeat of it counted', async () => {
    const receive = intake({ perAddressLimit: ERROR_LOG_RATE_LIMIT.limit });
    for (let index = 0; index < 200; index += 1) await post(receive, { ...record, message: `flood ${index}` }, '203.0.113.66');
    for (let index = 0; index < 200; index += 1) await post(receive, record, '203.0.113.67');
    expect((await post(receive, { ...record, message: 'Render failed', category: 'client', path: '/contact' }, '192.0.2.44')).status).toBe(
      201,
    );
    expect((await post(receive, { ...record, message: 'Render failed', category: 'client', path: '/contact' }, '192.0.2.45')).status).toBe(
      201,
    );
    expect(await visitorRows()).toEqual([
      ...Array.from({ length: ERROR_LOG_RATE_LIMIT.limit }, (_, index) => ({
        message: `flood ${index}`,
        occurrences: 1,
        client_address: '203.0.113.66',
        reported_by: 'visitor',
      })),
      { message: record.message, occurrences: ERROR_LOG_RATE_LIMIT.limit, client_address: '203.0.113.67', reported_by: 'visitor' },
      { message: 'Render failed', occurrences: 2, client_address: '192.0.2.45', reported_by: 'visitor' },
    ]);
  });
});
