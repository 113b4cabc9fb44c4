import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';
import { runToEnd, spawnTs, waitForLine } from '@/tests/support/child-process';

const folders: string[] = [];
function tempDbUrl() {
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-db-'));
  folders.push(folder);
  return `file:${path.join(folder, 'nested', 'site.db')}`;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('database migrations', () => {
  it('creates the folder, applies every migration once and records it', async () => {
    const client = await openDatabase(tempDbUrl());
    const ids = (await client.execute('SELECT id FROM schema_migrations ORDER BY id')).rows.map((row) => row.id);
    expect(ids).toContain('0001-error-logs');
    expect(await migrate(client)).toEqual([]);
    client.close();
  });

  it('rolls back a failing migration and leaves it unrecorded', async () => {
    const client = await openDatabase(tempDbUrl());
    await expect(
      migrate(client, [{ id: '9999-broken', statements: ['CREATE TABLE half_done (id INTEGER)', 'NOT SQL AT ALL'] }]),
    ).rejects.toThrow('Migration 9999-broken failed');
    const tables = (await client.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'")).rows;
    expect(tables).toHaveLength(0);
    const recorded = (await client.execute("SELECT id FROM schema_migrations WHERE id = '9999-broken'")).rows;
    expect(recorded).toHaveLength(0);
    client.close();
  });
});

describe('several processes on one database file', () => {
  it("waits for another process's write lock on every connection, including one a transaction takes", async () => {
    const url = tempDbUrl();
    const client = await openDatabase(url);
    await client.execute('CREATE TABLE waits (message TEXT)');
    // Hold one pooled connection in an open transaction so the next statement gets a fresh connection.
    const reader = await client.transaction('deferred');
    const holder = spawnTs('tests/support/processes/hold-write-lock.ts', [url, '700']);
    await waitForLine(holder, /^held$/);
    const started = Date.now();
    const tx = await client.transaction('write');
    await tx.execute("INSERT INTO waits VALUES ('waited')");
    await tx.commit();
    await client.execute("INSERT INTO waits VALUES ('waited too')");
    // It really waited for the other process's lock rather than finding the file free.
    expect(Date.now() - started).toBeGreaterThan(300);
    await reader.rollback();
    expect((await runToEnd(holder)).code).toBe(0);
    const messages = (await client.execute('SELECT message FROM waits ORDER BY rowid')).rows.map((row) => row.message);
    expect(messages).toEqual(['waited', 'waited too']);
    client.close();
  }, 20_000);

  it('lets two processes that start at the same moment both migrate a new database', async () => {
    for (let round = 0; round < 3; round += 1) {
      const url = tempDbUrl();
      const startAt = String(Date.now() + 1500);
      const runs = await Promise.all([0, 1, 2].map(() => runToEnd(spawnTs('tests/support/processes/open-database.ts', [url, startAt]))));
      for (const run of runs) {
        expect(run.code, run.lines.join('\n') + run.stderr).toBe(0);
        expect(JSON.parse(run.lines.at(-1)!)).toEqual({ ok: true, ids: migrations.map((migration) => migration.id).sort() });
      }
    }
  }, 60_000);
});
