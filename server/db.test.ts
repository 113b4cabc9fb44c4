import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '@/server/db';

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
