import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import type { ErrorLogRecord } from '@/lib/error-log';
import { storeErrorLog } from '@/server/error-log/store';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const record: ErrorLogRecord = { application: 'homecare-web', level: 'error', message: 'boom', source: 'frontend', category: 'client' };
const quiet = () => undefined;

let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

describe('the error-log table', () => {
  it("keeps at most the newest N visitor entries, dropping the oldest first, and never the server's own", async () => {
    await storeErrorLog({ ...record, message: 'server entry' }, { reportedBy: 'server', clientAddress: 'server', db, stdout: quiet });
    for (let i = 1; i <= 15; i += 1) {
      await storeErrorLog(
        { ...record, message: `visitor ${i}` },
        { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: quiet, maxVisitorRows: 10 },
      );
    }
    const messages = (await db.execute('SELECT message FROM error_logs ORDER BY id')).rows.map((row) => row.message);
    expect(messages).toEqual(['server entry', ...Array.from({ length: 10 }, (_, i) => `visitor ${i + 6}`)]);
  });

  it("writes each visitor's report to stdout as one short JSON line, never the record, whatever its text holds", async () => {
    const lines: string[] = [];
    await storeErrorLog(
      {
        ...record,
        message: `line one\nline two\r\n{"type":"error-log","source":"backend"} \u009b31m \u202eevil ${'x'.repeat(5000)}`,
        stack: 'secret stack',
      },
      { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: (line) => lines.push(line) },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\n\r\u007f-\u009f\u202a-\u202e]/);
    expect(lines[0]!.length).toBeLessThan(600);
    expect(lines[0]).not.toContain('secret stack');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'error-log',
      reportedBy: 'visitor',
      source: 'frontend',
      clientAddress: '192.0.2.1',
      occurrences: 1,
      message: expect.stringMatching(/^line one\nline two/),
    });
  });

  it("stores repeats of a visitor's report (same message, category and path) once, with a count and the last time and address", async () => {
    const quietly = (clientAddress: string) => ({ reportedBy: 'visitor' as const, clientAddress, db, stdout: quiet });
    const first = await storeErrorLog({ ...record, path: '/a' }, quietly('192.0.2.1'));
    await storeErrorLog({ ...record, path: '/a', level: 'critical', stack: 'other' }, quietly('192.0.2.2'));
    const third = await storeErrorLog({ ...record, path: '/a' }, quietly('192.0.2.3'));
    await storeErrorLog({ ...record, path: '/b' }, quietly('192.0.2.4'));
    await storeErrorLog({ ...record, path: '/a', category: 'network' }, quietly('192.0.2.5'));
    await storeErrorLog({ ...record, path: '/a' }, { reportedBy: 'server', clientAddress: 'server', db, stdout: quiet });
    await storeErrorLog({ ...record, path: '/a' }, { reportedBy: 'server', clientAddress: 'server', db, stdout: quiet });
    expect(third).toEqual({ stored: true, id: (first as { id: number }).id, occurrences: 3 });
    const stored = (
      await db.execute(
        'SELECT path, category, level, occurrences, client_address, reported_by, received_at < last_seen_at AS later FROM error_logs ORDER BY id',
      )
    ).rows.map((row) => ({ ...row }));
    expect(stored).toEqual([
      {
        path: '/a',
        category: 'client',
        level: 'error',
        occurrences: 3,
        client_address: '192.0.2.3',
        reported_by: 'visitor',
        later: expect.any(Number),
      },
      { path: '/b', category: 'client', level: 'error', occurrences: 1, client_address: '192.0.2.4', reported_by: 'visitor', later: 0 },
      { path: '/a', category: 'network', level: 'error', occurrences: 1, client_address: '192.0.2.5', reported_by: 'visitor', later: 0 },
      { path: '/a', category: 'client', level: 'error', occurrences: 1, client_address: 'server', reported_by: 'server', later: 0 },
      { path: '/a', category: 'client', level: 'error', occurrences: 1, client_address: 'server', reported_by: 'server', later: 0 },
    ]);
  });

  it('asks before adding a row, never before counting a repeat', async () => {
    const options = { reportedBy: 'visitor' as const, clientAddress: '192.0.2.1', db, stdout: quiet };
    await storeErrorLog(record, options);
    expect(await storeErrorLog(record, { ...options, mayAddRow: () => false })).toMatchObject({ stored: true, occurrences: 2 });
    expect(await storeErrorLog({ ...record, message: 'new' }, { ...options, mayAddRow: () => false })).toEqual({ stored: false });
    expect((await db.execute('SELECT count(*) AS n FROM error_logs')).rows[0]?.n).toBe(1);
  });

  it("migration 0009 merges the visitors' stored rows of one failure into one, keeping the first time and the count", async () => {
    const old = await tempDatabase();
    try {
      await old.db.execute("DELETE FROM schema_migrations WHERE id = '0009-error-log-groups'");
      await old.db.execute('DROP INDEX error_logs_group_key');
      await old.db.execute('DROP INDEX error_logs_last_seen');
      await old.db.execute('ALTER TABLE error_logs DROP COLUMN group_key');
      await old.db.execute('ALTER TABLE error_logs DROP COLUMN occurrences');
      await old.db.execute('ALTER TABLE error_logs DROP COLUMN last_seen_at');
      const insert = (message: string, receivedAt: string, reportedBy = 'visitor') =>
        old.db.execute({
          sql: "INSERT INTO error_logs (received_at, application, level, category, source, message, path, reported_by) VALUES (?, 'homecare-web', 'error', 'client', 'frontend', ?, '/x', ?)",
          args: [receivedAt, message, reportedBy],
        });
      await insert('boom', '2026-11-01T00:00:00.000Z');
      await insert('other', '2026-11-02T00:00:00.000Z');
      await insert('boom', '2026-11-03T00:00:00.000Z');
      await insert('boom', '2026-11-04T00:00:00.000Z', 'server');
      await insert('boom', '2026-11-05T00:00:00.000Z');
      const { migrate } = await import('@/server/base/db');
      expect(await migrate(old.db)).toEqual(['0009-error-log-groups']);
      const after = (
        await old.db.execute('SELECT id, message, occurrences, received_at, last_seen_at, reported_by FROM error_logs ORDER BY id')
      ).rows.map((row) => ({ ...row }));
      expect(after).toEqual([
        {
          id: 2,
          message: 'other',
          occurrences: 1,
          received_at: '2026-11-02T00:00:00.000Z',
          last_seen_at: '2026-11-02T00:00:00.000Z',
          reported_by: 'visitor',
        },
        {
          id: 4,
          message: 'boom',
          occurrences: 1,
          received_at: '2026-11-04T00:00:00.000Z',
          last_seen_at: '2026-11-04T00:00:00.000Z',
          reported_by: 'server',
        },
        {
          id: 5,
          message: 'boom',
          occurrences: 3,
          received_at: '2026-11-01T00:00:00.000Z',
          last_seen_at: '2026-11-05T00:00:00.000Z',
          reported_by: 'visitor',
        },
      ]);
      // The merged row is the one a new report of the failure counts on.
      await storeErrorLog(
        { ...record, message: 'boom', path: '/x' },
        { reportedBy: 'visitor', clientAddress: '192.0.2.1', db: old.db, stdout: quiet },
      );
      expect((await old.db.execute('SELECT occurrences FROM error_logs WHERE id = 5')).rows[0]?.occurrences).toBe(4);
    } finally {
      old.cleanup();
    }
  });

  it('npm run logs shows who wrote each entry and prints no escape sequence or control character a visitor sent', async () => {
    const hostile = 'Database corrupted\u001b[2J\u001b]52;c;ZXZpbA==\u0007 \u009b31m red \u202eevil\u0000';
    await storeErrorLog(
      { ...record, source: 'backend', level: 'critical', message: hostile },
      { reportedBy: 'visitor', clientAddress: '203.0.113.9', db, stdout: quiet },
    );
    await storeErrorLog(
      { ...record, message: 'real server failure' },
      { reportedBy: 'server', clientAddress: 'server', db, stdout: quiet },
    );
    for (const args of [[], ['--json']]) {
      const run = await runToEnd(spawnTs('scripts/logs.ts', args, { DATABASE_URL: url }));
      expect(run.code, run.stderr).toBe(0);
      const output = run.lines.join('\n');
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      expect(output).toContain('Database corrupted');
      if (args.length === 0) {
        expect(output).toMatch(/visitor 203\.0\.113\.9 +backend +critical/);
        expect(output).toMatch(/ server +frontend +error/);
      } else {
        // Newest first.
        expect(JSON.parse(output)).toEqual([
          expect.objectContaining({ reportedBy: 'server', message: 'real server failure', occurrences: 1 }),
          expect.objectContaining({ reportedBy: 'visitor', clientAddress: '203.0.113.9', source: 'backend', occurrences: 1 }),
        ]);
      }
    }
  }, 30_000);

  it("keeps no claim link's token, whoever reported it and wherever in the entry it stands", async () => {
    const status = '42.AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const staff = '42.zYxWvUtSrQpOnMlKjIhGfEdCbA-_9876';
    const lines: string[] = [];
    const withTokens: ErrorLogRecord = {
      ...record,
      message: `HTTP 500 from POST /api/claims/photos/${status}`,
      stack: `Error: boom\n    at https://www.example.com/claim-update/${staff}:1:2`,
      metadata: { url: `https://www.example.com/track/${status}`, page: `/claim-update/${staff}`, nested: [{ link: staff }] },
      path: `/track/${status}`,
      requestPayload: { link: `/claim-update/${staff}` },
      userAgent: `Mozilla/5.0 (from /track/${status})`,
    };
    await storeErrorLog(withTokens, { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: (line) => lines.push(line) });
    await storeErrorLog(withTokens, { reportedBy: 'server', clientAddress: 'server', db, stdout: (line) => lines.push(line) });
    const rows = (await db.execute('SELECT * FROM error_logs ORDER BY id')).rows;
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => [row.path, row.message])).toEqual([
      ['/track/', 'HTTP 500 from POST /api/claims/photos/'],
      ['/track/', 'HTTP 500 from POST /api/claims/photos/'],
    ]);
    expect(JSON.parse(String(rows[0]!.metadata))).toEqual({
      url: 'https://www.example.com/track/',
      page: '/claim-update/',
      nested: [{ link: '' }],
    });
    const everything = JSON.stringify({ rows, lines });
    for (const token of [status, staff]) expect(everything).not.toContain(token.split('.')[1]);
  });

  it("keeps no document's verification token or portfolio link token, wherever the proxies would cut them too", async () => {
    const verification = 'HC-YVG-Y5S-E12.AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const portfolio = 'x7Qp2L-8vZ_abcdefghijklmnopqrstuvwxyz0123';
    const lines: string[] = [];
    await storeErrorLog(
      {
        ...record,
        message: `Failed to load https://www.example.com/VERIFY/${verification}`,
        metadata: {
          printed: `Check it at www.example.com/verify/${verification}`,
          alone: verification,
          opened: `/portfolio/open/${portfolio}`,
        },
        path: `/verify/${verification}`,
        requestPayload: { link: `/portfolio/open/${portfolio}?from=mail` },
      },
      { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: (line) => lines.push(line) },
    );
    const [row] = (await db.execute('SELECT * FROM error_logs')).rows;
    expect([row!.path, row!.message]).toEqual(['/verify/', 'Failed to load https://www.example.com/VERIFY/']);
    expect(JSON.parse(String(row!.metadata))).toEqual({
      printed: 'Check it at www.example.com/verify/',
      alone: '',
      opened: '/portfolio/open/',
    });
    const everything = JSON.stringify({ row, lines });
    expect(everything).not.toContain('AbCdEfGhIjKlMnOpQrStUvWxYz012345');
    expect(everything).not.toContain(portfolio);
  });
});
