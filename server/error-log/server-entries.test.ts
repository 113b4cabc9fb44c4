import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { errorLogRecordSchema } from '@/server/error-log/record-schema';
import { createServerErrorRecorder, serverErrorRecord } from '@/server/error-log/server-entries';
import { storeErrorLog } from '@/server/error-log/store';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const request = { path: '/gallery?x=1', method: 'GET', headers: { 'user-agent': 'Mozilla/5.0 (test)' } };
const context = {
  routerKind: 'App Router',
  routePath: '/gallery',
  routeType: 'render',
  renderSource: 'server-rendering',
  revalidateReason: undefined,
} as const;

describe('serverErrorRecord', () => {
  it('records a server failure with source backend and category server', () => {
    const error = Object.assign(new Error('Gallery folder unreadable'), { digest: '12345' });
    const record = serverErrorRecord(error, request, context);
    expect(record).toMatchObject({
      application: 'homecare-web',
      level: 'error',
      source: 'backend',
      category: 'server',
      message: 'Gallery folder unreadable',
      statusCode: 500,
      path: '/gallery?x=1',
      method: 'GET',
      userAgent: 'Mozilla/5.0 (test)',
      metadata: { routePath: '/gallery', routeType: 'render', routerKind: 'App Router', renderSource: 'server-rendering', digest: '12345' },
    });
    expect(record.stack).toContain('Gallery folder unreadable');
    expect(errorLogRecordSchema.safeParse(record).success).toBe(true);
  });

  it('marks a database failure as category database', () => {
    const error = Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
    expect(serverErrorRecord(error, request, context).category).toBe('database');
  });

  it('copes with a thrown non-Error', () => {
    const record = serverErrorRecord('plain string', { ...request, headers: {} }, context);
    expect(record).toMatchObject({ message: 'plain string', stack: null, userAgent: null });
  });
});

describe('the server’s request errors in the error log', () => {
  let db: Client;
  let cleanup: () => void;
  beforeEach(async () => {
    ({ db, cleanup } = await tempDatabase());
  });
  afterEach(() => cleanup());

  const recorder = () =>
    createServerErrorRecorder({ store: (entry, options) => storeErrorLog(entry, { ...options, db, stdout: () => undefined }) });
  const failing = (i: number) =>
    serverErrorRecord(
      new Error('SQLITE_BUSY: database is locked'),
      { path: `/claims/HC-${i}?from=${i}`, method: 'GET', headers: { 'user-agent': `client ${i}` } },
      { ...context, routePath: '/claims/[reference]' },
    );
  const rows = async () =>
    (await db.execute('SELECT message, occurrences, reported_by FROM error_logs ORDER BY id')).rows.map((row) => ({ ...row }));

  it('keeps 500 failures of one route, from 500 different clients and addresses, as one row counting 500', async () => {
    const record = recorder();
    for (let i = 1; i <= 500; i += 1) await record(failing(i));
    expect(await rows()).toEqual([{ message: 'SQLITE_BUSY: database is locked', occurrences: 500, reported_by: 'server' }]);
  });

  it('adds at most 30 new rows an hour, and one entry counting the failures it did not store', async () => {
    const record = recorder();
    for (let i = 1; i <= 500; i += 1) await record({ ...failing(i), message: `failure ${i}` });
    await record({ ...failing(1), message: 'failure 1' });
    await record.flushDropped();
    const stored = await rows();
    expect(stored).toHaveLength(31);
    expect(stored.slice(0, 30).map((row) => row.message)).toEqual(Array.from({ length: 30 }, (_, i) => `failure ${i + 1}`));
    expect(stored[0]).toMatchObject({ occurrences: 2 });
    expect(stored[30]).toMatchObject({
      reported_by: 'server',
      occurrences: 1,
      message: expect.stringMatching(/^470 server errors not stored between /),
    });
  });

  it('keeps the most recently seen grouped rows past the cap, and the server’s alerts whatever the cap', async () => {
    const record = createServerErrorRecorder({
      store: (entry, options) => storeErrorLog(entry, { ...options, db, stdout: () => undefined, maxServerGroups: 3 }),
    });
    await storeErrorLog(
      { application: 'homecare-web', level: 'critical', source: 'backend', category: 'server', message: 'an alert' },
      { reportedBy: 'server', clientAddress: 'server', db, stdout: () => undefined },
    );
    // Apart in time, so that the last-seen times order them.
    const later = () => new Promise((resolve) => setTimeout(resolve, 3));
    for (const i of [1, 2, 3, 1, 4]) {
      await record({ ...failing(i), message: `failure ${i}` });
      await later();
    }
    expect((await rows()).map((row) => row.message)).toEqual(['an alert', 'failure 1', 'failure 3', 'failure 4']);
  });

  it('never counts a visitor’s report on the server’s row', async () => {
    const record = recorder();
    await record(failing(1));
    const { path, message, category } = failing(2);
    await storeErrorLog(
      { application: 'homecare-web', level: 'error', source: 'frontend', message, category, path },
      { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: () => undefined },
    );
    await record(failing(3));
    expect((await rows()).map((row) => [row.reported_by, row.occurrences])).toEqual([
      ['server', 2],
      ['visitor', 1],
    ]);
  });
});
