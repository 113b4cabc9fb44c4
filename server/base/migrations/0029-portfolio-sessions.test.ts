import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, expect, it } from 'vitest';
import { migrate } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-migration-0029-'));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('drops the link keys, keeping every organisation and person; old links open nothing and no session is made', async () => {
  const client = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  const before = migrations.findIndex((migration) => migration.id === '0029-portfolio-sessions');
  await migrate(client, migrations.slice(0, before));
  await client.execute(`INSERT INTO organisations (id, name, link_key, created_ms, updated_ms) VALUES (1, 'Example Mutual', 'k1', 1, 2)`);
  await client.execute(`INSERT INTO organisation_people (id, organisation_id, email, email_key, link_key, created_ms, last_used_ms)
    VALUES (1, 1, 'Ann@mutual.example', 'ann@mutual.example', 'p1', 1, 5), (2, 1, NULL, NULL, 'p2', 1, NULL)`);

  expect(await migrate(client, migrations.slice(0, before + 1))).toEqual(['0029-portfolio-sessions']);
  const columns = async (table: string) => (await client.execute(`PRAGMA table_info(${table})`)).rows.map((row) => String(row.name));
  expect(await columns('organisations')).not.toContain('link_key');
  expect(await columns('organisations')).toContain('suspended_ms');
  expect(await columns('organisation_people')).not.toContain('link_key');
  expect(
    (await client.execute('SELECT id, name, suspended_ms, updated_ms FROM organisations')).rows.map((row) => Object.values(row)),
  ).toEqual([[1, 'Example Mutual', null, 2]]);
  expect(
    (await client.execute('SELECT id, email, last_used_ms FROM organisation_people ORDER BY id')).rows.map((row) => Object.values(row)),
  ).toEqual([
    [1, 'Ann@mutual.example', 5],
    [2, null, null],
  ]);
  for (const table of ['portfolio_links', 'portfolio_sessions'])
    expect((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n).toBe(0);
  // A token is kept once: a second link or session with the same hash is refused.
  await client.execute(`INSERT INTO portfolio_links (person_id, token_hash, created_ms) VALUES (1, 'h', 1)`);
  await expect(client.execute(`INSERT INTO portfolio_links (person_id, token_hash, created_ms) VALUES (2, 'h', 1)`)).rejects.toThrow(
    /UNIQUE/,
  );
  await client.execute(
    `INSERT INTO portfolio_sessions (person_id, token_hash, created_ms, last_used_ms, browser) VALUES (1, 's', 1, 1, 'Firefox')`,
  );
  await expect(
    client.execute(
      `INSERT INTO portfolio_sessions (person_id, token_hash, created_ms, last_used_ms, browser) VALUES (2, 's', 1, 1, 'Firefox')`,
    ),
  ).rejects.toThrow(/UNIQUE/);
  client.close();
});
