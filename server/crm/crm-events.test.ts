// POST /api/crm/events against a real database: signed claim events from the company's CRM, applied
// in the order they happened (the body's timestamp), whatever order they arrive in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimStatus } from '@/server/claims/claim-status';
import { createCrmEventsHandler } from '@/server/crm/crm-events';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { crmEventRequest, testCrmEventsSecret, type CrmEventOptions } from '@/tests/support/crm-event';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';
import { outboxMessages } from '@/tests/support/outbox';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const NOW = Date.parse('2026-12-01T09:00:00Z');

let db: Client;
let cleanup: () => void;
let reference: string;
let id: number;
let outbox: string;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  outbox = mkdtempSync(path.join(tmpdir(), 'homecare-crm-events-outbox-'));
  ({ id, reference } = await submitEnquiry(db, { subject: 'Leaking roof', message: 'Water through the ceiling.' }));
});
afterEach(() => {
  cleanup();
  rmSync(outbox, { recursive: true, force: true });
});

const handler = (secret: string | null = testCrmEventsSecret) => createCrmEventsHandler({ secret, db: async () => db, now: () => NOW });

/** A claim.updated from the CRM, signed at NOW and said to happen then unless told. */
const event = (data: Record<string, unknown>, options: CrmEventOptions = {}) =>
  crmEventRequest('claim.updated', data, { signedAt: NOW, happened: new Date(NOW), ...options });

describe('claim events from the CRM', () => {
  it('applies a signed claim.updated: stage, date, whose move and note', async () => {
    const answer = await handler()(
      event({ reference, stage: 'survey-booked', date: '2026-12-02', waitingOn: 'customer', note: 'Please leave the side gate open.' }),
    );
    expect(answer).toEqual({ status: 200, body: { success: true, applied: true, current: true } });
    expect(await claimStatus(db, id)).toMatchObject({
      reference: enquiryReference(id),
      stage: 'survey-booked',
      nextDate: '2026-12-02',
      waitingOn: 'customer',
      timeline: [{ stage: 'received' }, { stage: 'survey-booked', note: 'Please leave the side gate open.' }],
    });
  });

  it('an event sent again under the same id is answered 200 and not applied again', async () => {
    const first = await handler()(event({ reference, stage: 'contacted' }, { id: 'msg_once' }));
    const again = await handler()(event({ reference, stage: 'contacted' }, { id: 'msg_once' }));
    expect([first.body.applied, again.status, again.body.applied]).toEqual([true, 200, false]);
    expect((await claimStatus(db, id))?.timeline).toHaveLength(2);
    // The customer is told of the change once: one e-mail queued.
    expect((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'stage'")).rows[0]?.n).toBe(1);
  });

  it('a bad or missing signature, another secret, or a timestamp over five minutes off: 401, nothing applied', async () => {
    const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const unsigned = new Request('http://127.0.0.1/api/crm/events', { method: 'POST', body: JSON.stringify({ type: 'claim.updated' }) });
    for (const request of [
      event({ reference, stage: 'completed' }, { secret: other }),
      event({ reference, stage: 'completed' }, { signedAt: NOW - 301_000 }),
      event({ reference, stage: 'completed' }, { signedAt: NOW + 301_000 }),
      unsigned,
    ])
      expect((await handler()(request)).status).toBe(401);
    expect((await claimStatus(db, id))?.stage).toBe('received');
  });

  it('an unknown reference is 404; an unknown stage or a malformed body is 400 naming the field', async () => {
    expect((await handler()(event({ reference: enquiryReference(99), stage: 'completed' }))).status).toBe(404);
    expect(await handler()(event({ reference, stage: 'demolished' }))).toMatchObject({
      status: 400,
      body: { errors: [{ path: 'data.stage' }] },
    });
    expect(await handler()(event({ reference, stage: 'completed', date: '2026-02-30', waitingOn: 'nobody' }))).toMatchObject({
      status: 400,
      body: { errors: [{ path: 'data.date' }, { path: 'data.waitingOn' }] },
    });
    expect(await handler()(event({}, { body: '{"type":"claim.updated"' }))).toMatchObject({
      status: 400,
      body: { errors: [{ path: 'body' }] },
    });
    expect(await handler()(event({}, { body: JSON.stringify({ type: 'claim.deleted', timestamp: 'x', data: {} }) }))).toMatchObject({
      status: 400,
      body: { errors: [{ path: 'type' }, { path: 'timestamp' }, { path: 'data.reference' }, { path: 'data.stage' }] },
    });
    expect((await claimStatus(db, id))?.stage).toBe('received');
  });

  it('is off without CRM_EVENTS_SECRET: 404 for everything', async () => {
    expect((await handler(null)(event({ reference, stage: 'completed' }))).status).toBe(404);
  });

  it('refuses a body over 64 KB before checking it', async () => {
    expect((await handler()(event({ reference, stage: 'completed', note: 'x'.repeat(66_000) }))).status).toBe(413);
  });
});

/** The e-mails the customer was sent about their claim's stage, by the outbox worker, in order. */
async function stageEmailsSent(): Promise<string[]> {
  const worker = createOutboxWorker({
    db,
    mailer: createMailer({ smtpUrl: null, outboxDir: outbox }),
    from: 'site@example.com',
    to: 'office@example.com',
    pollMs: 1000,
    log: () => undefined,
    now: () => NOW + 60_000,
  });
  await worker.runOnce();
  return outboxMessages(outbox)
    .map((raw) => parseMail(raw).subject)
    .filter((subject) => subject.startsWith(`Your repair ${reference}:`));
}

const twoMinutesEarlier = new Date(NOW - 2 * 60_000).toISOString();

describe('events in the order they happened', () => {
  it('a late contacted (two minutes older) after survey-booked: kept in the history, the claim stays at survey booked, one e-mail', async () => {
    const booked = await handler()(event({ reference, stage: 'survey-booked', date: '2026-12-04', waitingOn: 'us', note: 'Tuesday.' }));
    // The CRM's late retry of an earlier event: signed now, its body's timestamp two minutes older.
    const late = await handler()(
      event(
        { reference, stage: 'contacted', date: '2026-12-01', waitingOn: 'customer', note: 'We rang you.' },
        { happened: twoMinutesEarlier },
      ),
    );
    expect(booked).toEqual({ status: 200, body: { success: true, applied: true, current: true } });
    expect(late).toEqual({ status: 200, body: { success: true, applied: true, current: false } });

    const status = await claimStatus(db, id);
    // The late event's date and whose move it is do not overwrite the current stage's.
    expect(status).toMatchObject({ stage: 'survey-booked', nextDate: '2026-12-04', waitingOn: 'us' });
    expect(status?.timeline.slice(1)).toEqual([
      { stage: 'contacted', at: twoMinutesEarlier, note: 'We rang you.' },
      { stage: 'survey-booked', at: new Date(NOW).toISOString(), note: 'Tuesday.' },
    ]);
    expect(await stageEmailsSent()).toEqual([`Your repair ${reference}: Survey booked (Example Homecare)`]);
  });

  it('the same two events in the order they happened: both current in turn, two e-mails', async () => {
    const contacted = await handler()(event({ reference, stage: 'contacted' }, { happened: twoMinutesEarlier }));
    const booked = await handler()(event({ reference, stage: 'survey-booked' }));
    expect([contacted.body.current, booked.body.current]).toEqual([true, true]);
    expect((await claimStatus(db, id))?.stage).toBe('survey-booked');
    expect(await stageEmailsSent()).toEqual([
      `Your repair ${reference}: Contacted (Example Homecare)`,
      `Your repair ${reference}: Survey booked (Example Homecare)`,
    ]);
  });

  it('on equal times the one that arrives last is the claim’s stage', async () => {
    await handler()(event({ reference, stage: 'survey-booked' }));
    expect((await handler()(event({ reference, stage: 'contacted' }))).body).toEqual({ success: true, applied: true, current: true });
    expect((await claimStatus(db, id))?.stage).toBe('contacted');
    expect(await stageEmailsSent()).toHaveLength(2);
  });

  it('a late event sent again under its id is not applied twice', async () => {
    await handler()(event({ reference, stage: 'survey-booked' }));
    const late = event({ reference, stage: 'contacted' }, { id: 'msg_late', happened: twoMinutesEarlier });
    const again = event({ reference, stage: 'contacted' }, { id: 'msg_late', happened: twoMinutesEarlier });
    expect((await handler()(late)).body).toEqual({ success: true, applied: true, current: false });
    expect(await handler()(again)).toEqual({ status: 200, body: { success: true, applied: false } });
    expect((await claimStatus(db, id))?.timeline.map((entry) => entry.stage)).toEqual(['received', 'contacted', 'survey-booked']);
  });

  it('a time after its signature’s, long before the claim, or without an offset from UTC: 400 naming the timestamp', async () => {
    const refused = { status: 400, body: { errors: [{ path: 'timestamp' }] } };
    // Signed now, said to happen a minute from now: not sent after it happened.
    expect(await handler()(event({ reference, stage: 'completed' }, { happened: new Date(NOW + 60_000).toISOString() }))).toMatchObject(
      refused,
    );
    expect(await handler()(event({ reference, stage: 'completed' }, { happened: '2020-01-01T00:00:00Z' }))).toMatchObject(refused);
    expect(await handler()(event({ reference, stage: 'completed' }, { happened: '2026-12-01T08:59:00' }))).toMatchObject(refused);
    // Within the second the signature's whole-second time stands for, and with an offset: taken.
    expect((await handler()(event({ reference, stage: 'contacted' }, { happened: new Date(NOW + 999).toISOString() }))).status).toBe(200);
    expect((await handler()(event({ reference, stage: 'contacted' }, { happened: '2026-12-01T08:59:00+00:00' }))).status).toBe(200);
    expect((await claimStatus(db, id))?.stage).toBe('contacted');
  });
});
