import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, expect, it } from 'vitest';
import { migrate } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-migration-0032-'));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('keeps every outbox job as it was, and takes a reminder per change of stage but no other kind', async () => {
  const client = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  const before = migrations.findIndex((migration) => migration.id === '0032-survey-reminders');
  await migrate(client, migrations.slice(0, before));
  await client.execute(`INSERT INTO enquiries (received_at, received_ms, name, email, subject, message, client_address, content_hash, disposition, verification)
    VALUES ('2026-01-05T09:00:00.000Z', 1767603600000, 'Jo', 'jo@example.com', 'Roof', 'Leak', '203.0.113.7', 'h', 'accepted', 'verified')`);
  await client.execute(`INSERT INTO claim_stage_changes (enquiry_id, stage, source, changed_at, changed_ms)
    VALUES (1, 'survey-booked', 'customer', '2026-01-06T09:00:00.000Z', 1), (1, 'survey-booked', 'customer', '2026-01-07T09:00:00.000Z', 2)`);
  await client.execute(`INSERT INTO enquiry_notifications (enquiry_id, kind, status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, sent_at, message_id, stage_change_id, photos_from)
    VALUES (1, 'notification', 'sent', 2, 5, NULL, NULL, NULL, '2026-01-05T09:00:01.000Z', '<enquiry-1@x>', NULL, NULL),
      (1, 'photos', 'pending', 1, 7, 'w', 9, 'timeout', NULL, NULL, NULL, 3),
      (1, 'stage', 'failed', 20, 11, NULL, NULL, '550 no', NULL, NULL, 1, NULL)`);
  const rows = async () => (await client.execute('SELECT * FROM enquiry_notifications ORDER BY id')).rows.map((row) => ({ ...row }));
  const kept = await rows();

  expect(await migrate(client, migrations.slice(0, before + 1))).toEqual(['0032-survey-reminders']);
  expect(await rows()).toEqual(kept);
  await client.execute(
    `INSERT INTO enquiry_notifications (enquiry_id, kind, status, next_attempt_ms, stage_change_id) VALUES (1, 'reminder', 'pending', 0, 1), (1, 'reminder', 'pending', 0, 2)`,
  );
  await expect(
    client.execute(
      `INSERT INTO enquiry_notifications (enquiry_id, kind, status, next_attempt_ms, stage_change_id) VALUES (1, 'reminder', 'pending', 0, 2)`,
    ),
  ).rejects.toThrow(/UNIQUE/);
  await expect(
    client.execute(`INSERT INTO enquiry_notifications (enquiry_id, kind, status, next_attempt_ms) VALUES (1, 'other', 'pending', 0)`),
  ).rejects.toThrow(/CHECK/);
  client.close();
});
