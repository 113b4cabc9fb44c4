import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, expect, it } from 'vitest';
import { migrate } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-migration-0022-'));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('keeps every webhook event with its id; a drying visit has one event, and an unknown type is refused', async () => {
  const client = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  const before = migrations.findIndex((migration) => migration.id === '0022-drying-webhooks');
  await migrate(client, migrations.slice(0, before));
  await client.execute(`INSERT INTO enquiries (received_at, received_ms, name, email, subject, message, client_address, content_hash, disposition, verification)
    VALUES ('2026-01-05T09:00:00.000Z', 1767603600000, 'Jo', 'jo@example.com', 'Roof', 'Leak', '203.0.113.7', 'h', 'accepted', 'verified')`);
  await client.execute(`INSERT INTO webhook_events (id, enquiry_id, type, event_id, occurred_at, created_ms, status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, delivered_at)
    VALUES (7, 1, 'enquiry.received', 'msg_a', '2026-01-05T09:00:00.000Z', 1, 'delivered', 2, 5, NULL, NULL, 'HTTP 503', '2026-01-05T09:00:09.000Z'),
           (9, 1, 'enquiry.photos_added', 'msg_b', '2026-01-06T09:00:00.000Z', 2, 'pending', 1, 7, 'w', 9, NULL, NULL)`);
  const rows = async () => (await client.execute('SELECT * FROM webhook_events ORDER BY id')).rows.map((row) => ({ ...row }));
  const kept = await rows();

  expect(await migrate(client, migrations.slice(0, before + 1))).toEqual(['0022-drying-webhooks']);
  expect(await rows()).toEqual(kept.map((row) => ({ ...row, drying_visit_id: null })));
  await client.execute(`INSERT INTO drying_visits (enquiry_id, visit_at, visit_ms, source, event_id, recorded_at)
    VALUES (1, '2026-01-07T09:00:00.000Z', 1, 'staff', 'v1', '2026-01-07T09:00:00.000Z'), (1, '2026-01-08T09:00:00.000Z', 2, 'staff', 'v2', '2026-01-08T09:00:00.000Z')`);
  const event = (eventId: string, visit: number) =>
    client.execute(`INSERT INTO webhook_events (enquiry_id, type, event_id, drying_visit_id, occurred_at, created_ms, next_attempt_ms)
      VALUES (1, 'claim.drying_recorded', '${eventId}', ${visit}, '2026-01-07T09:00:00.000Z', 3, 3)`);
  await event('msg_c', 1);
  await event('msg_d', 2);
  await expect(event('msg_e', 2)).rejects.toThrow(/UNIQUE/);
  // New rows number on from the copied ones.
  expect(Number((await client.execute('SELECT max(id) AS id FROM webhook_events')).rows[0]?.id)).toBe(11);
  await expect(
    client.execute(`INSERT INTO webhook_events (enquiry_id, type, event_id, occurred_at, created_ms, next_attempt_ms)
      VALUES (1, 'claim.other', 'msg_f', '2026-01-07T09:00:00.000Z', 3, 3)`),
  ).rejects.toThrow(/CHECK/);
  client.close();
});
