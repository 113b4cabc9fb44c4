import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, expect, it } from 'vitest';
import { migrate } from '@/server/base/db';
import { migrations } from '@/server/base/migrations';

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-migration-0033-'));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it('keeps every CRM event as it was, records the visits booked before as booked, and takes the appointment events', async () => {
  const client = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  const before = migrations.findIndex((migration) => migration.id === '0033-appointment-changes');
  await migrate(client, migrations.slice(0, before));
  await client.execute(`INSERT INTO enquiries (received_at, received_ms, name, email, subject, message, client_address, content_hash, disposition, verification)
    VALUES ('2026-01-05T09:00:00.000Z', 1767603600000, 'Jo', 'jo@example.com', 'Roof', 'Leak', '203.0.113.7', 'h', 'accepted', 'verified')`);
  await client.execute(`INSERT INTO webhook_events (enquiry_id, type, event_id, occurred_at, created_ms, status, attempts, next_attempt_ms, delivered_at)
    VALUES (1, 'enquiry.received', 'msg_1', '2026-01-05T09:00:00.000Z', 5, 'delivered', 1, 5, '2026-01-05T09:00:01.000Z')`);
  await client.execute(`INSERT INTO survey_appointments (enquiry_id, uid, date, window, status, sequence, moves, booked_by, created_ms, updated_ms)
    VALUES (1, 'u@x', '2026-01-07', 'pm', 'booked', 1, 1, 'customer', 100, 200)`);
  const events = async () => (await client.execute('SELECT * FROM webhook_events ORDER BY id')).rows.map((row) => ({ ...row }));
  const kept = await events();

  expect(await migrate(client, migrations.slice(0, before + 1))).toEqual(['0033-appointment-changes']);
  expect(await events()).toEqual(kept.map((row) => ({ ...row, appointment_change_id: null })));
  expect(
    (
      await client.execute('SELECT appointment_id, action, date, window, sequence, made_by, changed_ms FROM survey_appointment_changes')
    ).rows.map((row) => ({ ...row })),
  ).toEqual([{ appointment_id: 1, action: 'booked', date: '2026-01-07', window: 'pm', sequence: 1, made_by: 'customer', changed_ms: 100 }]);
  await client.execute(`INSERT INTO webhook_events (enquiry_id, type, event_id, appointment_change_id, occurred_at, created_ms, next_attempt_ms)
    VALUES (1, 'appointment.no_access', 'msg_2', 1, '2026-01-07T17:00:00.000Z', 6, 6)`);
  await expect(
    client.execute(`INSERT INTO webhook_events (enquiry_id, type, event_id, appointment_change_id, occurred_at, created_ms, next_attempt_ms)
      VALUES (1, 'appointment.no_access', 'msg_3', 1, '2026-01-07T17:00:00.000Z', 6, 6)`),
  ).rejects.toThrow(/UNIQUE/);
  await expect(
    client.execute(`INSERT INTO survey_appointment_changes (appointment_id, enquiry_id, action, date, window, sequence, made_by, changed_ms)
      VALUES (1, 1, 'lost', '2026-01-07', 'pm', 2, 'customer', 300)`),
  ).rejects.toThrow(/CHECK/);
  client.close();
});
