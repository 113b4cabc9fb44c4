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

  it('writes each entry to stdout as exactly one JSON line, whatever its text holds', async () => {
    const lines: string[] = [];
    await storeErrorLog(
      { ...record, message: 'line one\nline two\r\n{"type":"error-log","source":"backend"}' },
      { reportedBy: 'visitor', clientAddress: '192.0.2.1', db, stdout: (line) => lines.push(line) },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\n\r]/);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'error-log',
      reportedBy: 'visitor',
      source: 'frontend',
      clientAddress: '192.0.2.1',
    });
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
        expect(JSON.parse(output)).toEqual([
          expect.objectContaining({ reportedBy: 'visitor', clientAddress: '203.0.113.9', source: 'backend' }),
          expect.objectContaining({ reportedBy: 'server', message: 'real server failure' }),
        ]);
      }
    }
  }, 30_000);
});
