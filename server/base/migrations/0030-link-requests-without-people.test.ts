import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, expect, it } from 'vitest';
import { migrate } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-migration-0030-'));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('keeps each job with its person’s address and mailbox, each link with its person and organisation, and drops link_sent_ms', async () => {
  const client = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  const before = migrations.findIndex((migration) => migration.id === '0030-link-requests-without-people');
  await migrate(client, migrations.slice(0, before));
  await client.execute(`INSERT INTO organisations (id, name, created_ms, updated_ms) VALUES (1, 'Example Mutual', 1, 2)`);
  await client.execute(`INSERT INTO organisation_people (id, organisation_id, email, email_key, created_ms, link_sent_ms)
    VALUES (1, 1, 'Ann+Claims@Mutual.example', 'ann+claims@mutual.example', 1, 5), (2, 1, NULL, NULL, 1, NULL)`);
  await client.execute(`INSERT INTO portfolio_link_mails (id, person_id, status, next_attempt_ms, created_ms, sent_at, message_id)
    VALUES (7, 1, 'sent', 5, 5, '2026-11-23T10:00:00.000Z', '<m@test>'), (8, 1, 'pending', 6, 6, NULL, NULL)`);
  await client.execute(
    `INSERT INTO portfolio_links (id, person_id, token_hash, created_ms, used_ms) VALUES (3, 1, 'h1', 5, NULL), (4, 2, 'h2', 6, 7)`,
  );

  expect(await migrate(client, migrations.slice(0, before + 1))).toEqual(['0030-link-requests-without-people']);
  const rows = async (query: string) => (await client.execute(query)).rows.map((row) => Object.values(row));
  expect(
    await rows('SELECT id, email, mailbox, domain, organisation_id, status, created_ms, message_id FROM portfolio_link_mails ORDER BY id'),
  ).toEqual([
    [7, 'Ann+Claims@Mutual.example', 'ann@mutual.example', 'mutual.example', 1, 'sent', 5, '<m@test>'],
    [8, 'Ann+Claims@Mutual.example', 'ann@mutual.example', 'mutual.example', 1, 'pending', 6, null],
  ]);
  expect(
    await rows('SELECT id, organisation_id, person_id, email, email_key, token_hash, created_ms, used_ms FROM portfolio_links ORDER BY id'),
  ).toEqual([
    [3, 1, 1, 'Ann+Claims@Mutual.example', 'ann+claims@mutual.example', 'h1', 5, null],
    [4, 1, 2, null, null, 'h2', 6, 7],
  ]);
  const columns = (await client.execute('PRAGMA table_info(organisation_people)')).rows.map((row) => String(row.name));
  expect(columns).not.toContain('link_sent_ms');
  // A link e-mailed to an address has no person yet; a token is still kept once.
  await client.execute(
    `INSERT INTO portfolio_links (organisation_id, email, email_key, token_hash, created_ms) VALUES (1, 'bob@mutual.example', 'bob@mutual.example', 'h3', 8)`,
  );
  await expect(client.execute(`INSERT INTO portfolio_links (organisation_id, token_hash, created_ms) VALUES (1, 'h3', 9)`)).rejects.toThrow(
    /UNIQUE/,
  );
  client.close();
});
