// The CRM's pending `enquiry.received` events: the intake only marks an enquiry, and these are written
// later in batches of their own, each once, queued at the moment its enquiry was received.
import { createClient, type Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orm } from '@/server/base/db';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { enquiryReceivedEvent, writePendingReceivedEvents } from '@/server/crm/outgoing-events';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { newEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const start = Date.parse('2026-11-20T10:00:00Z');

async function store(index: number, options: { tellCrm?: boolean; disposition?: 'accepted' | 'spam' } = {}) {
  const enquiry = newEnquiry({
    email: `jo${index}@example.com`,
    subject: `Roof leak ${index}`,
    message: 'Water is coming in.',
    clientAddress: '203.0.113.9',
    disposition: options.disposition ?? 'accepted',
    tellCrm: options.tellCrm ?? true,
  });
  return (await storeEnquiry(db, enquiry, start + index * 1000)).id;
}

const count = async (query: string) => Number((await db.execute(query)).rows[0]?.n);
const pendingCount = () => count('SELECT count(*) AS n FROM enquiries WHERE crm_owed_received = 1');

describe('owed enquiry.received events', () => {
  it('the intake writes no event: it marks an accepted enquiry stored while the webhooks are on, and only that one', async () => {
    const told = await store(1);
    await store(2, { tellCrm: false });
    await store(3, { disposition: 'spam' });
    expect(await count('SELECT count(*) AS n FROM webhook_events')).toBe(0);
    const marked = (await db.execute('SELECT id FROM enquiries WHERE crm_owed_received = 1')).rows.map((row) => Number(row.id));
    expect(marked).toEqual([told]);
  });

  it('more than one write holds: every owed event written once, queued when its enquiry was received, in that order; the marks cleared', async () => {
    const total = 1201;
    for (let index = 1; index <= total; index += 1) await store(index);
    expect(await pendingCount()).toBe(total);

    expect(await writePendingReceivedEvents(db)).toBe(total);
    const rows = (
      await db.execute(
        `SELECT w.enquiry_id, w.type, w.event_id, w.created_ms, w.next_attempt_ms, w.occurred_at, w.status, e.received_ms, e.received_at
         FROM webhook_events w JOIN enquiries e ON e.id = w.enquiry_id ORDER BY w.id`,
      )
    ).rows;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.enquiry_id)).size).toBe(total);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(total);
    for (const row of rows) {
      expect(row).toMatchObject({
        type: 'enquiry.received',
        status: 'pending',
        created_ms: row.received_ms,
        next_attempt_ms: row.received_ms,
      });
      expect(row.occurred_at).toBe(row.received_at);
      expect(String(row.event_id)).toMatch(/^msg_[0-9a-f]{32}$/);
    }
    const receivedOrder = rows.map((row) => Number(row.received_ms));
    expect(receivedOrder).toEqual([...receivedOrder].sort((a, b) => a - b));
    expect(await pendingCount()).toBe(0);

    expect(await writePendingReceivedEvents(db)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM webhook_events')).toBe(total);
    // 1,201 enquiries stored one by one: seconds on a loaded machine, not a hang.
  }, 60_000);

  it('an owed enquiry whose event was written another way (a re-send, the operator) keeps that one, and its mark is cleared', async () => {
    const first = await store(1);
    await store(2);
    await orm(db).run(enquiryReceivedEvent(sql`SELECT ${first} AS id`, start));
    const [before] = (await db.execute(`SELECT event_id FROM webhook_events WHERE enquiry_id = ${first}`)).rows;

    expect(await writePendingReceivedEvents(db)).toBe(1);
    expect(await pendingCount()).toBe(0);
    const events = (await db.execute('SELECT enquiry_id, event_id FROM webhook_events ORDER BY enquiry_id')).rows;
    expect(events.map((row) => Number(row.enquiry_id))).toEqual([first, first + 1]);
    expect(events[0]?.event_id).toBe(before?.event_id);
  });

  it('takes no write lock when none is owed: another process holding it does not hold up a poll', async () => {
    await store(1, { tellCrm: false });
    const other = createClient({ url });
    const writing = await other.transaction('write');
    try {
      await writing.execute("UPDATE enquiries SET subject = 'Roof leak, held'");
      expect(await writePendingReceivedEvents(db)).toBe(0);
    } finally {
      await writing.rollback();
      writing.close();
      other.close();
    }
  });
});
