import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { enquiryReference } from '@/lib/enquiry-reference';
import { resendEvents, undeliveredEvents, webhookFigures, webhooksDeliveredBetween, webhookStateOf } from '@/server/crm/webhook-status';
import { orm } from '@/server/base/db';
import { webhookEvents } from '@/server/base/db-schema';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const start = Date.parse('2026-11-20T10:00:00Z');
const hour = 60 * 60_000;
const crmEnv = {
  CRM_WEBHOOK_URL: 'https://crm.example.com/hooks/site',
  CRM_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
};

let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

let serial = 0;
/** Stores an enquiry as POST /api/contact does; a filled honeypot makes it spam. Returns its id. */
async function submit(at: number, extra: Record<string, string> = {}): Promise<number> {
  serial += 1;
  const body = { email: `jo${serial}@example.com`, subject: `Roof leak ${serial}`, message: 'Water is coming in.' };
  return (await submitEnquiry(db, { ...body, ...extra }, { at })).id;
}

type EventRow = typeof webhookEvents.$inferInsert;
let eventSerial = 0;
async function addEvent(enquiryId: number, event: Partial<EventRow> = {}) {
  eventSerial += 1;
  await orm(db)
    .insert(webhookEvents)
    .values({
      enquiryId,
      type: 'claim.updated',
      eventId: `msg_${eventSerial.toString(16).padStart(32, '0')}`,
      photosFrom: eventSerial,
      occurredAt: new Date(start).toISOString(),
      createdMs: start,
      nextAttemptMs: start,
      ...event,
    });
}

describe("the owner's view of the CRM's webhooks", () => {
  it('counts the events waiting and failed for good, and how long the oldest waiting one has waited', async () => {
    expect(await webhookFigures(db, start)).toEqual({ pending: 0, failed: 0, oldestUndeliveredMs: null, oldestUndeliveredSeconds: null });
    const id = await submit(start);
    await addEvent(id, { type: 'enquiry.received', createdMs: start + 1000 });
    await addEvent(id, { createdMs: start + 5000, status: 'pending', attempts: 2 });
    await addEvent(id, { status: 'failed', attempts: 9, lastError: 'HTTP 410' });
    await addEvent(id, { status: 'delivered', deliveredAt: '2026-11-20T10:00:02.000Z' });
    expect(await webhookFigures(db, start + 2 * hour + 1500)).toEqual({
      pending: 2,
      failed: 1,
      oldestUndeliveredMs: start + 1000,
      oldestUndeliveredSeconds: 2 * 3600,
    });
    expect(await webhooksDeliveredBetween(db, start, start + 2000)).toBe(0);
    expect(await webhooksDeliveredBetween(db, start, start + 2001)).toBe(1);
    expect(await webhooksDeliveredBetween(db, start + 2000, start + 2001)).toBe(1);
    expect(await webhooksDeliveredBetween(db, start + 2001, start + hour)).toBe(0);
  });

  it('an enquiry the worker has not reached yet (owed its enquiry.received) counts as waiting since it was received, in every view', async () => {
    const body = { email: 'jo.owed@example.com', subject: 'Roof leak, owed', message: 'Water is coming in.' };
    const { id } = await submitEnquiry(db, body, { at: start, config: loadEnquiryConfig(crmEnv) });
    expect(Number((await db.execute('SELECT count(*) AS n FROM webhook_events')).rows[0]!.n)).toBe(0);

    expect(await webhookFigures(db, start + 90_000)).toEqual({
      pending: 1,
      failed: 0,
      oldestUndeliveredMs: start,
      oldestUndeliveredSeconds: 90,
    });
    expect(Object.fromEntries(await webhookStateOf(db, [id]))).toEqual({ [id]: { state: 'pending', attempts: 0, lastError: null } });
    expect(await undeliveredEvents(db)).toEqual([
      expect.objectContaining({
        reference: enquiryReference(id),
        type: 'enquiry.received',
        status: 'pending',
        attempts: 0,
        createdMs: start,
      }),
    ]);
    // Only the CRM's worker writes the pending event: the views read.
    expect(Number((await db.execute('SELECT count(*) AS n FROM webhook_events')).rows[0]!.n)).toBe(0);
    expect(Number((await db.execute(`SELECT crm_owed_received AS n FROM enquiries WHERE id = ${id}`)).rows[0]!.n)).toBe(1);
  });

  it('gives each enquiry with events one state: failed over waiting over delivered; none without events', async () => {
    const [delivered, waiting, failed, none] = [await submit(start), await submit(start), await submit(start), await submit(start)];
    await addEvent(delivered, { status: 'delivered' });
    await addEvent(delivered, { status: 'delivered' });
    await addEvent(waiting, { status: 'delivered' });
    await addEvent(waiting, { status: 'pending', attempts: 1, lastError: 'HTTP 503' });
    await addEvent(waiting, { status: 'pending', attempts: 3, lastError: 'no answer within 10 s' });
    await addEvent(failed, { status: 'pending', attempts: 4 });
    await addEvent(failed, { status: 'failed', attempts: 1, lastError: 'HTTP 410' });
    await addEvent(failed, { status: 'delivered' });
    const states = await webhookStateOf(db, [delivered, waiting, failed, none]);
    expect(Object.fromEntries(states)).toEqual({
      [delivered]: { state: 'delivered' },
      [waiting]: { state: 'pending', attempts: 3, lastError: 'no answer within 10 s' },
      [failed]: { state: 'failed', lastError: 'HTTP 410' },
    });
    expect(states.has(none)).toBe(false);
    expect((await webhookStateOf(db, [])).size).toBe(0);
  });

  it('lists the undelivered events oldest first, by reference', async () => {
    const id = await submit(start);
    await addEvent(id, { status: 'failed', attempts: 12, lastError: 'HTTP 410', createdMs: start + 10 });
    await addEvent(id, { type: 'enquiry.received', status: 'pending', attempts: 2, createdMs: start });
    await addEvent(id, { status: 'delivered' });
    expect(await undeliveredEvents(db)).toEqual([
      expect.objectContaining({
        reference: enquiryReference(id),
        type: 'enquiry.received',
        status: 'pending',
        attempts: 2,
        createdMs: start,
      }),
      expect.objectContaining({
        reference: enquiryReference(id),
        type: 'claim.updated',
        status: 'failed',
        attempts: 12,
        lastError: 'HTTP 410',
      }),
    ]);
  });

  it("sends an enquiry's events again under their ids, due now, their day of retries starting again", async () => {
    const id = await submit(start);
    const other = await submit(start);
    await addEvent(id, { type: 'enquiry.received', status: 'delivered', attempts: 1, deliveredAt: '2026-11-20T10:00:01.000Z' });
    await addEvent(id, { status: 'failed', attempts: 14, lastError: 'HTTP 410' });
    await addEvent(id, {
      status: 'pending',
      attempts: 2,
      leaseOwner: 'webhooks-1',
      leaseUntilMs: start + 60_000,
      nextAttemptMs: start + hour,
    });
    await addEvent(other, { status: 'failed', attempts: 3, lastError: 'HTTP 400' });
    const before = await orm(db).select().from(webhookEvents).where(eq(webhookEvents.enquiryId, id)).orderBy(webhookEvents.id);
    const now = start + 30 * hour;
    expect(await resendEvents(db, id, now)).toBe(3);
    const after = await orm(db).select().from(webhookEvents).where(eq(webhookEvents.enquiryId, id)).orderBy(webhookEvents.id);
    expect(after.map((event) => event.eventId)).toEqual(before.map((event) => event.eventId));
    for (const event of after)
      expect(event).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptMs: now,
        createdMs: now,
        lastError: null,
        leaseOwner: null,
        leaseUntilMs: null,
        deliveredAt: null,
      });
    const [untouched] = await orm(db).select().from(webhookEvents).where(eq(webhookEvents.enquiryId, other));
    expect(untouched).toMatchObject({ status: 'failed', attempts: 3, lastError: 'HTTP 400' });
  });

  it('gives an accepted enquiry without events its enquiry.received; a spam one none; an unknown one is null', async () => {
    const accepted = await submit(start);
    const spam = await submit(start + 1000, { website: 'https://spam.example' });
    const now = start + 2 * hour;
    expect(await resendEvents(db, accepted, now)).toBe(1);
    const [received] = await orm(db).select().from(webhookEvents).where(eq(webhookEvents.enquiryId, accepted));
    expect(received).toMatchObject({
      type: 'enquiry.received',
      occurredAt: new Date(start).toISOString(),
      createdMs: now,
      nextAttemptMs: now,
      status: 'pending',
      attempts: 0,
    });
    expect(received!.eventId).toMatch(/^msg_[0-9a-f]{32}$/);
    // Sent again, it is the same event.
    expect(await resendEvents(db, accepted, now + 1000)).toBe(1);
    expect((await orm(db).select().from(webhookEvents).where(eq(webhookEvents.enquiryId, accepted))).map((event) => event.eventId)).toEqual(
      [received!.eventId],
    );
    expect(await resendEvents(db, spam, now)).toBe(0);
    expect(await resendEvents(db, 9999, now)).toBeNull();
    expect(await orm(db).select().from(webhookEvents).where(eq(webhookEvents.enquiryId, spam))).toEqual([]);
  });
});

describe('npm run webhooks', () => {
  it('says plainly when the webhooks are off, and refuses an unknown reference', async () => {
    const off = await runToEnd(
      spawnTs('scripts/webhooks.ts', ['--list'], { DATABASE_URL: url, CRM_WEBHOOK_URL: '', CRM_WEBHOOK_SECRET: '' }),
    );
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('Webhooks to the CRM are off: set CRM_WEBHOOK_URL and CRM_WEBHOOK_SECRET');
    const unknown = await runToEnd(spawnTs('scripts/webhooks.ts', ['--resend', 'HC-ABC-DEF'], { DATABASE_URL: url, ...crmEnv }));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no enquiry HC-ABC-DEF.');
    const malformed = await runToEnd(spawnTs('scripts/webhooks.ts', ['--resend', 'not-a-reference'], { DATABASE_URL: url, ...crmEnv }));
    expect(malformed.code).toBe(1);
    const neither = await runToEnd(spawnTs('scripts/webhooks.ts', [], { DATABASE_URL: url, ...crmEnv }));
    expect(neither.code).toBe(2);
  }, 30_000);

  it("--resend queues an enquiry's events again; --list prints those not delivered, with no secret", async () => {
    const id = await submit(start);
    const reference = enquiryReference(id);
    await addEvent(id, { type: 'enquiry.received', status: 'failed', attempts: 11, lastError: 'HTTP 410' });
    await addEvent(id, { status: 'pending', attempts: 0, createdMs: start + 1000 });
    const listed = await runToEnd(spawnTs('scripts/webhooks.ts', ['--list'], { DATABASE_URL: url, ...crmEnv }));
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.lines[0]).toMatch(/^reference +event +status +attempts +queued \(UTC\) +next attempt +last error$/);
    expect(listed.lines[1]).toMatch(new RegExp(`^${reference} +enquiry\\.received +FAILED +11 +2026-11-20 10:00:00 +- +HTTP 410$`));
    expect(listed.lines[2]).toMatch(new RegExp(`^${reference} +claim\\.updated +waiting +0 +2026-11-20 10:00:01 +2026-11-20 10:00:00 +-$`));
    expect(listed.lines.join('\n')).not.toContain(crmEnv.CRM_WEBHOOK_SECRET.slice(6, 20));
    const resent = await runToEnd(spawnTs('scripts/webhooks.ts', ['--resend', reference.toLowerCase()], { DATABASE_URL: url, ...crmEnv }));
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.lines).toEqual([`Queued 2 events of ${reference} again; the running server's worker sends them at its next poll.`]);
    expect(await webhookFigures(db, Date.now())).toMatchObject({ pending: 2, failed: 0 });
    const listing = await runToEnd(spawnTs('scripts/enquiries.ts', [], { DATABASE_URL: url, ...crmEnv }));
    expect(listing.code, listing.stderr).toBe(0);
    expect(listing.lines).toContain('    CRM: waiting');
    const withoutCrm = await runToEnd(
      spawnTs('scripts/enquiries.ts', [], { DATABASE_URL: url, CRM_WEBHOOK_URL: '', CRM_WEBHOOK_SECRET: '' }),
    );
    expect(withoutCrm.lines.join('\n')).not.toContain('CRM:');
  }, 30_000);
});
