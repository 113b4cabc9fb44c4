// POST /api/crm/events against a real database: signed claim events from the company's CRM.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimStatus } from '@/server/claims/claim-status';
import { createCrmEventsHandler } from '@/server/crm/crm-events';
import { webhookHeaders, webhookKey } from '@/server/crm/standard-webhooks';
import { loadEnquiryConfig } from '@/server/enquiries/config';
import { createContactHandler } from '@/server/enquiries/contact-handler';
import { contactRequest, tempDatabase } from '@/tests/support/enquiry-peers';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW = Date.parse('2026-12-01T09:00:00Z');

let db: Client;
let cleanup: () => void;
let reference: string;
let id: number;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  const handle = createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined });
  const answer = await handle(
    contactRequest({
      name: 'Jo Bloggs',
      email: 'jo@example.com',
      phone: '',
      subject: 'Leaking roof',
      message: 'Water through the ceiling.',
    }),
  );
  expect(answer.status).toBe(201);
  reference = String(answer.body.reference);
  id = 1;
});
afterEach(() => cleanup());

const handler = (secret: string | null = SECRET) => createCrmEventsHandler({ secret, db: async () => db, now: () => NOW });

function event(
  data: Record<string, unknown>,
  {
    eventId = `msg_${Math.random().toString(36).slice(2)}`,
    secret = SECRET,
    timestamp = NOW / 1000,
    body,
  }: Partial<{ eventId: string; secret: string; timestamp: number; body: string }> = {},
) {
  const text = body ?? JSON.stringify({ type: 'claim.updated', timestamp: new Date(NOW).toISOString(), data });
  return new Request('http://127.0.0.1/api/crm/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...webhookHeaders(webhookKey(secret), { id: eventId, timestamp, body: text }) },
    body: text,
  });
}

describe('claim events from the CRM', () => {
  it('applies a signed claim.updated: stage, date, whose move and note', async () => {
    const answer = await handler()(
      event({ reference, stage: 'survey-booked', date: '2026-12-02', waitingOn: 'customer', note: 'Please leave the side gate open.' }),
    );
    expect(answer).toEqual({ status: 200, body: { success: true, applied: true } });
    expect(await claimStatus(db, id)).toMatchObject({
      reference: enquiryReference(id),
      stage: 'survey-booked',
      nextDate: '2026-12-02',
      waitingOn: 'customer',
      timeline: [{ stage: 'received' }, { stage: 'survey-booked', note: 'Please leave the side gate open.' }],
    });
  });

  it('an event sent again under the same id is answered 200 and not applied again', async () => {
    const first = await handler()(event({ reference, stage: 'contacted' }, { eventId: 'msg_once' }));
    const again = await handler()(event({ reference, stage: 'contacted' }, { eventId: 'msg_once' }));
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
      event({ reference, stage: 'completed' }, { timestamp: NOW / 1000 - 301 }),
      event({ reference, stage: 'completed' }, { timestamp: NOW / 1000 + 301 }),
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

  it('refuses a body over 16 KB before checking it', async () => {
    expect((await handler()(event({ reference, stage: 'completed', note: 'x'.repeat(17_000) }))).status).toBe(413);
  });
});
