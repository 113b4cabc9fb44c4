import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, expect, it } from 'vitest';
import { migrate } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-migration-0028-'));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('keeps an organisation only where the company named it; one taken from a typed address waits for proof', async () => {
  const client = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  const before = migrations.findIndex((migration) => migration.id === '0028-instruction-proof');
  await migrate(client, migrations.slice(0, before));
  await client.execute(`INSERT INTO organisations (id, name, link_key, created_ms, updated_ms)
    VALUES (1, 'Example Mutual', 'k1', 1, 1), (2, 'Loss Adjusters Ltd', 'k2', 1, 1)`);
  await client.execute(`INSERT INTO organisation_domains (domain, organisation_id) VALUES ('mutual.example', 1), ('adjusters.example', 2)`);
  const enquiry = (id: number, email: string, organisation: number | null) =>
    client.execute({
      sql: `INSERT INTO enquiries (id, received_at, received_ms, name, email, subject, message, client_address, content_hash, disposition, verification, organisation_id)
        VALUES (?, '2026-11-05T09:00:00.000Z', 1793869200000, 'Desk', ?, 'Instruction', 'Escape of water', '203.0.113.7', ?, 'accepted', 'verified', ?)`,
      args: [id, email, `h${id}`, organisation],
    });
  await enquiry(1, 'anyone@Mutual.Example.', 1); // from the typed address alone
  await enquiry(2, 'jo@example.com', 2); // named by a CRM event: the address names no organisation
  await enquiry(3, 'desk@mutual.example', 2); // named by a CRM event: another than the address names
  await enquiry(4, 'desk@adjusters.example', null); // never assigned

  expect(await migrate(client, migrations.slice(0, before + 1))).toEqual(['0028-instruction-proof']);
  const rows = (await client.execute('SELECT id, organisation_id, claimed_organisation_id, organisation_proof FROM enquiries ORDER BY id'))
    .rows;
  expect(rows.map((row) => [row.id, row.organisation_id, row.claimed_organisation_id, row.organisation_proof])).toEqual([
    [1, null, 1, null],
    [2, 2, null, 'company'],
    [3, 2, 1, 'company'],
    [4, null, null, null],
  ]);
  await expect(client.execute(`UPDATE enquiries SET organisation_proof = 'typed' WHERE id = 1`)).rejects.toThrow(/CHECK/);
  client.close();
});
