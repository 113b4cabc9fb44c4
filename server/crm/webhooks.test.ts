// The company's CRM told of each enquiry by signed webhooks, through a fake receiver: every event
// once, signed; a receiver that is down, then failing, then back; a refusal for good; the e-mail never
// held back; events of one enquiry in order, each with one id.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { createLaterPhotos } from '@/server/intake/later-photos';
import { createLaterPhotosHandler } from '@/server/intake/later-photos-handler';
import { recordStageChange } from '@/server/claims/claim-status';
import { recordDryingVisit } from '@/server/claims/drying/record';
import { createPhotoLinkRoute } from '@/server/crm/photo-links';
import { createWebhookWorker, GIVE_UP_AFTER_MS, nextAttemptDelayMs } from '@/server/crm/webhooks';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { wallClock } from '@/server/reports/digest/period';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { writePendingReceivedEvents } from '@/server/crm/outgoing-events';
import { freePort, tempDatabase } from '@/tests/support/enquiry-peers';
import { multipartRequest } from '@/tests/support/multipart-request';
import { metadataTags, phonePhoto, withPhoneExif } from '@/tests/support/photo-fixtures';
import { startWebhookReceiver, testWebhookSecret } from '@/tests/support/webhook-receiver';
import { submitEnquiry, newEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
let photosRoot: string;
let outbox: string;
let clock: number;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-webhook-photos-'));
  outbox = mkdtempSync(path.join(tmpdir(), 'homecare-webhook-outbox-'));
  clock = Date.now();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
  rmSync(outbox, { recursive: true, force: true });
});

const quiet = () => undefined;
const siteUrl = 'https://www.example.test';
const valid = {
  name: 'Morag Claim',
  email: 'morag@example.com',
  phone: '07700 900123',
  subject: 'Ceiling down',
  message: 'Water came through the kitchen ceiling.',
  claimRole: 'homeowner',
  insurer: 'Example Mutual',
  claimReference: 'EM-123',
  postcode: 'G67 1AA',
  worsening: 'yes',
};

async function receiverAndConfig() {
  const receiver = await startWebhookReceiver();
  closers.push(receiver.close);
  const env = { CRM_WEBHOOK_URL: receiver.url, CRM_WEBHOOK_SECRET: testWebhookSecret, CONTACT_RATE_LIMIT: '100' };
  return { receiver, env, config: loadEnquiryConfig(env) };
}

async function storedEnquiry(config: ReturnType<typeof loadEnquiryConfig>, withPhoto = true) {
  const photos = withPhoto ? [{ name: 'IMG_1.jpg', bytes: withPhoneExif(await phonePhoto(1, { width: 800, height: 600 })) }] : [];
  return (await submitEnquiry(db, valid, { config, photosRoot, photos, at: clock })).id;
}

const webhookWorker = (url: string, fetchImpl?: typeof fetch) =>
  createWebhookWorker({
    db,
    target: { url, secret: testWebhookSecret },
    siteUrl,
    pollMs: 1000,
    log: quiet,
    now: () => clock,
    fetch: fetchImpl,
  });

const mailWorker = () =>
  createOutboxWorker({
    db,
    mailer: createMailer({ smtpUrl: null, outboxDir: outbox }),
    from: 'site@example.com',
    to: 'office@example.com',
    pollMs: 1000,
    log: quiet,
    photosRoot,
    now: () => clock,
  });

describe('events out', () => {
  it('tells the CRM of the enquiry, photos added later and a change on the site, each once and signed; a change from the CRM is not echoed', async () => {
    const { receiver, config } = await receiverAndConfig();
    const id = await storedEnquiry(config);
    const reference = enquiryReference(id);
    const later = createLaterPhotosHandler(createLaterPhotos({ config, db: async () => db, wake: quiet, photosRoot, now: () => clock }));
    const { request } = await multipartRequest({}, [{ name: 'IMG_2.jpg', bytes: await phonePhoto(2, { width: 640, height: 480 }) }], {
      accept: 'application/json',
    });
    expect((await later(request, reference, (await claimSessionValue(db, 'status', id, clock))!)).status).toBe(201);
    const pages = createClaimPages({ db: async () => db, now: () => clock, tellCrm: true });
    const form = new FormData();
    form.set('formToken', newFormToken());
    form.set('stage', 'survey-booked');
    form.set('nextDate', '2026-12-02');
    form.set('note', 'Surveyor on Wednesday.');
    expect(await pages.saveUpdate(enquiryReference(id), (await claimSessionValue(db, 'update', id, clock))!, form)).toMatchObject({
      kind: 'saved',
    });
    await recordStageChange(
      db,
      id,
      {
        stage: 'surveyed',
        waitingOn: null,
        nextDate: null,
        note: null,
        tellCustomer: false,
        source: 'crm',
        eventId: 'msg_from_crm',
        tellCrm: true,
      },
      clock + 1,
    );

    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(3);
    expect(await worker.runOnce()).toBe(0);
    expect(receiver.received.map((event) => [event.event.type, event.signed])).toEqual([
      ['enquiry.received', true],
      ['enquiry.photos_added', true],
      ['claim.updated', true],
    ]);
    expect(new Set(receiver.received.map((event) => event.id)).size).toBe(3);
    for (const event of receiver.received) expect(event.id).toMatch(/^msg_[0-9a-f]{32}$/);

    const [received, added, updated] = receiver.received.map((event) => event.event);
    expect(received).toMatchObject({
      type: 'enquiry.received',
      version: 1,
      data: {
        reference,
        fields: {
          name: 'Morag Claim',
          email: 'morag@example.com',
          claimReference: 'EM-123',
          postcode: 'G67 1AA',
          worsening: 'yes',
          propertyAddress: null,
        },
        urgent: true,
        verification: 'not-configured',
      },
    });
    const receivedPhotos = received!.data.photos as { position: number; url: string }[];
    expect(receivedPhotos.map((photo) => photo.position)).toEqual([1]);
    expect((added!.data.photos as { position: number }[]).map((photo) => photo.position)).toEqual([2]);
    expect(updated!.data).toMatchObject({
      reference,
      stage: 'survey-booked',
      date: '2026-12-02',
      note: 'Surveyor on Wednesday.',
      customerTold: true,
    });

    // The photo's link serves the stored image, its EXIF gone.
    const route = createPhotoLinkRoute({ db: async () => db, photosRoot, now: () => clock });
    const token = receivedPhotos[0]!.url.slice(`${siteUrl}/api/enquiry-photos/`.length);
    const served = await route.GET(new Request(receivedPhotos[0]!.url), { params: Promise.resolve({ token }) });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('private, no-store');
    expect(metadataTags(Buffer.from(await served.arrayBuffer())).filter((tag) => /^(?:EXIF|XMP|IPTC|MakerNotes):/.test(tag))).toEqual([]);
  });

  it('each claim.updated carries when its change was saved (data.changedAt), not when it is sent', async () => {
    const { receiver, config } = await receiverAndConfig();
    const id = await storedEnquiry(config, false);
    const sentAt = clock;
    clock -= 10 * 60_000;
    const contactedAt = clock;
    const pages = createClaimPages({ db: async () => db, now: () => clock, tellCrm: true });
    const save = async (stage: string) => {
      const form = new FormData();
      form.set('formToken', newFormToken());
      form.set('stage', stage);
      return pages.saveUpdate(enquiryReference(id), (await claimSessionValue(db, 'update', id, clock))!, form);
    };
    await save('contacted');
    clock += 90_000;
    await save('survey-booked');

    clock = sentAt;
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(3);
    const updates = receiver.received.filter((event) => event.event.type === 'claim.updated').map((event) => event.event);
    expect(updates.map((event) => [event.data.stage, event.data.changedAt, event.timestamp])).toEqual([
      ['contacted', new Date(contactedAt).toISOString(), new Date(contactedAt).toISOString()],
      ['survey-booked', new Date(contactedAt + 90_000).toISOString(), new Date(contactedAt + 90_000).toISOString()],
    ]);
  });

  it("tells the CRM of each drying visit recorded on the staff page, with kWh so far, after the claim's other events; a visit from the CRM is not echoed; dried goes out as claim.updated", async () => {
    const { receiver, config } = await receiverAndConfig();
    const id = await storedEnquiry(config, false);
    const reference = enquiryReference(id);
    const pages = createClaimPages({ db: async () => db, now: () => clock, tellCrm: true });
    const staff = (await claimSessionValue(db, 'update', id, clock))!;
    const save = async (stage: string) => {
      const form = new FormData();
      form.set('formToken', newFormToken());
      form.set('stage', stage);
      // Saving dried asks who confirmed the drying (for the certificate).
      if (stage === 'dried') form.set('confirmedBy', 'Ali Surveyor');
      return pages.saveUpdate(reference, staff, form);
    };
    const london = (ms: number) => {
      const wall = wallClock(ms, 'Europe/London');
      return `${wall.date}T${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`;
    };
    const on = Math.floor((clock - 48 * 3_600_000) / 60_000) * 60_000;
    const visit = (at: number, kitchen: number) => {
      const form = new FormData();
      const fields = {
        formToken: newFormToken(),
        visitAt: london(at),
        'readings.0.location': 'Kitchen wall',
        'readings.0.material': 'plaster',
        'readings.0.scale': 'wme',
        'readings.0.value': String(kitchen),
        'readings.0.goal': '12',
        'equipment.0.kind': 'dehumidifier',
        'equipment.0.model': 'Ebac BD150',
        'equipment.0.watts': '700',
        'equipment.0.count': '1',
        'equipment.0.on': london(on),
        'equipment.0.off': '',
        'equipment.0.kwh': '',
      };
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return pages.recordVisit(reference, staff, form);
    };
    expect(await save('drying')).toMatchObject({ kind: 'saved' });
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(2);
    expect(await visit(on, 28)).toMatchObject({ kind: 'saved' });
    // From the CRM: recorded, and never sent back to it.
    const fromCrm = {
      reference,
      visitAt: new Date(on + 12 * 3_600_000).toISOString(),
      readings: [{ location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value: 20, goal: 12 }],
      equipment: [],
    };
    expect(await recordDryingVisit(db, id, fromCrm, { source: 'crm', eventId: 'msg_from_crm', now: clock, tellCrm: true })).toBe(
      'recorded',
    );
    expect(await visit(on + 24 * 3_600_000, 12)).toMatchObject({ kind: 'saved' });
    expect(await save('dried')).toMatchObject({ kind: 'saved' });

    // The CRM fails the first visit's event once: it is tried again with the same id, and the later events wait for it.
    receiver.answerWith(503);
    expect(await worker.runOnce()).toBe(1);
    clock += 10_000;
    receiver.answerWith(204);
    expect(await worker.runOnce()).toBe(3);
    expect(receiver.received.map((event) => [event.event.type, event.signed])).toEqual([
      ['enquiry.received', true],
      ['claim.updated', true],
      ['claim.drying_recorded', true],
      ['claim.drying_recorded', true],
      ['claim.drying_recorded', true],
      ['claim.updated', true],
    ]);
    const ids = receiver.received.map((event) => event.id);
    expect(ids[3]).toBe(ids[2]);
    expect(new Set(ids).size).toBe(5);
    const [, drying, , first, second, dried] = receiver.received.map((event) => event.event);
    expect(drying!.data.stage).toBe('drying');
    expect(dried!.data.stage).toBe('dried');
    const machine = {
      kind: 'dehumidifier',
      model: 'Ebac BD150',
      watts: 700,
      count: 1,
      on: new Date(on).toISOString(),
      off: null,
      kwh: null,
    };
    expect(first).toMatchObject({
      type: 'claim.drying_recorded',
      version: 1,
      data: {
        reference,
        visitAt: new Date(on).toISOString(),
        readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 28, goal: 12, temperature: null, humidity: null }],
        equipment: [{ ...machine, hoursSoFar: 0, kwhSoFar: 0, kwhFrom: 'rated' }],
        kwhSoFar: 0,
      },
    });
    expect(typeof first!.timestamp).toBe('string');
    // 700 W for 24 hours: 16.8 kWh, worked out from its rating (no plug-in meter read).
    expect(second!.data).toEqual({
      reference,
      visitAt: new Date(on + 24 * 3_600_000).toISOString(),
      readings: [{ location: 'Kitchen wall', material: 'plaster', scale: 'wme', value: 12, goal: 12, temperature: null, humidity: null }],
      equipment: [{ ...machine, hoursSoFar: 24, kwhSoFar: 16.8, kwhFrom: 'rated' }],
      kwhSoFar: 16.8,
    });
  });

  it('with webhooks off, nothing is queued or owed', async () => {
    await storedEnquiry(loadEnquiryConfig({}));
    expect(await writePendingReceivedEvents(db)).toBe(0);
    expect(Number((await db.execute('SELECT count(*) AS n FROM webhook_events')).rows[0]?.n)).toBe(0);
  });
});

describe('enquiry.received, owed by the intake and written by the worker', () => {
  it('the intake writes no event, only marks the enquiry; the worker writes its enquiry.received, queued when it was received, and sends it once', async () => {
    const { receiver, config } = await receiverAndConfig();
    const receivedMs = clock;
    const id = await storedEnquiry(config, false);
    expect(Number((await db.execute('SELECT count(*) AS n FROM webhook_events')).rows[0]?.n)).toBe(0);
    expect((await db.execute(`SELECT crm_owed_received FROM enquiries WHERE id = ${id}`)).rows[0]?.crm_owed_received).toBe(1);

    clock += 5 * 60_000;
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect(receiver.received.map(({ event }) => [event.type, event.timestamp, event.data.reference])).toEqual([
      ['enquiry.received', new Date(receivedMs).toISOString(), enquiryReference(id)],
    ]);
    const [row] = (await db.execute('SELECT status, created_ms, attempts FROM webhook_events')).rows;
    expect(row).toMatchObject({ status: 'delivered', created_ms: receivedMs, attempts: 1 });
    expect((await db.execute(`SELECT crm_owed_received FROM enquiries WHERE id = ${id}`)).rows[0]?.crm_owed_received).toBe(0);
  });

  it("an owed enquiry's day of retries counts from when it was received: one owed for more than a day is tried once, then given up", async () => {
    const { config } = await receiverAndConfig();
    await storedEnquiry(config, false);
    clock += GIVE_UP_AFTER_MS;
    const down = webhookWorker(`http://127.0.0.1:${await freePort()}/hooks`);
    expect(await down.runOnce()).toBe(1);
    expect((await db.execute('SELECT status FROM webhook_events')).rows[0]?.status).toBe('failed');
  });
});

describe('a re-send with the photos the enquiry lacked', () => {
  /** The text-only claim with its key, then the same claim sent again (another address, the same key) with a photo. */
  async function textFirstThenPhotos(config: ReturnType<typeof loadEnquiryConfig>) {
    const handle = createContactHandler({ config, db: async () => db, wake: quiet, photosRoot, now: () => clock });
    const fields = { ...valid, enquiryKey: newEnquiryKey() };
    const first = await handle((await multipartRequest(fields, [])).request);
    return {
      first,
      sendAgain: async () =>
        handle((await multipartRequest(fields, [{ name: 'IMG_1.jpg', bytes: await phonePhoto(1, { width: 800, height: 600 }) }])).request),
    };
  }
  const eventsOf = (receiver: Awaited<ReturnType<typeof startWebhookReceiver>>) =>
    receiver.received.map(({ event }) => [event.type, (event.data.photos as { position: number }[]).map((photo) => photo.position)]);

  it('after enquiry.received went out (without photos): the CRM hears enquiry.photos_added for them, once', async () => {
    const { receiver, config } = await receiverAndConfig();
    const { first, sendAgain } = await textFirstThenPhotos(config);
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(1);

    const again = await sendAgain();
    expect(again).toMatchObject({ status: 201, body: first.body });
    // Sent a third time: nothing more is handed over, and nothing more is told.
    expect((await sendAgain()).body).toEqual(first.body);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect(eventsOf(receiver)).toEqual([
      ['enquiry.received', []],
      ['enquiry.photos_added', [1]],
    ]);
    expect(receiver.received[1]!.event.data).toMatchObject({ reference: (first.body as { reference: string }).reference });
  });

  it('before enquiry.received went out: it carries the photos, and no enquiry.photos_added is sent', async () => {
    const { receiver, config } = await receiverAndConfig();
    const { first, sendAgain } = await textFirstThenPhotos(config);
    expect((await sendAgain()).body).toEqual(first.body);
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect(eventsOf(receiver)).toEqual([['enquiry.received', [1]]]);
  });

  it('while a worker holds enquiry.received (it may have read the photos): they get their own event, and the received one leaves them out', async () => {
    const { receiver, config } = await receiverAndConfig();
    const { first, sendAgain } = await textFirstThenPhotos(config);
    // Another worker wrote the pending enquiry.received and holds it.
    expect(await writePendingReceivedEvents(db)).toBe(1);
    await db.execute("UPDATE webhook_events SET lease_owner = 'another-worker', lease_until_ms = 0");
    expect((await sendAgain()).body).toEqual(first.body);
    // That worker died before sending: its lease has lapsed and this one sends both.
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(2);
    expect(await worker.runOnce()).toBe(0);
    expect(eventsOf(receiver)).toEqual([
      ['enquiry.received', []],
      ['enquiry.photos_added', [1]],
    ]);
  });
});

describe('delivered like the e-mails', () => {
  it('a receiver down, then failing, then back: each event arrives once, with one id, in order; the e-mail went out meanwhile', async () => {
    const { receiver, config } = await receiverAndConfig();
    const id = await storedEnquiry(config, false);
    const pages = createClaimPages({ db: async () => db, now: () => clock, tellCrm: true });
    const form = new FormData();
    form.set('formToken', newFormToken());
    form.set('stage', 'contacted');
    await pages.saveUpdate(enquiryReference(id), (await claimSessionValue(db, 'update', id, clock))!, form);

    // Down: nothing listens.
    const down = webhookWorker(`http://127.0.0.1:${await freePort()}/hooks`);
    expect(await down.runOnce()).toBe(1);
    // The company's e-mail is not held back.
    expect(await mailWorker().runOnce()).toBeGreaterThanOrEqual(1);
    const [notification] = (await db.execute("SELECT status FROM enquiry_notifications WHERE kind = 'notification'")).rows;
    expect(notification?.status).toBe('sent');

    const worker = webhookWorker(receiver.url);
    // Not yet due: the first retries come after ten seconds.
    expect(await worker.runOnce()).toBe(0);
    clock += 10_000;
    receiver.answerWith(500);
    expect(await worker.runOnce()).toBe(1);
    // The second event waits behind the first, which is not delivered yet.
    expect(receiver.received.map((event) => event.event.type)).toEqual(['enquiry.received']);
    clock += 10_000;
    receiver.answerWith(429, { 'Retry-After': '120' });
    expect(await worker.runOnce()).toBe(1);
    clock += 60_000;
    expect(await worker.runOnce()).toBe(0);
    clock += 60_000;
    receiver.answerWith(204);
    expect(await worker.runOnce()).toBe(2);
    expect(receiver.received.map((event) => event.event.type)).toEqual([
      'enquiry.received',
      'enquiry.received',
      'enquiry.received',
      'claim.updated',
    ]);
    expect(new Set(receiver.received.slice(0, 3).map((event) => event.id)).size).toBe(1);
    expect(receiver.received.every((event) => event.signed)).toBe(true);
    const rows = (await db.execute('SELECT type, status, attempts FROM webhook_events ORDER BY type')).rows;
    expect(rows.map((row) => [row.type, row.status, Number(row.attempts)])).toEqual([
      ['claim.updated', 'delivered', 1],
      ['enquiry.received', 'delivered', 4],
    ]);
  });

  it('a 410 is final and kept as failed, with its reason', async () => {
    const { receiver, config } = await receiverAndConfig();
    await storedEnquiry(config, false);
    receiver.answerWith(410);
    const worker = webhookWorker(receiver.url);
    expect(await worker.runOnce()).toBe(1);
    clock += 24 * 60 * 60_000;
    expect(await worker.runOnce()).toBe(0);
    expect((await db.execute('SELECT status, last_error FROM webhook_events')).rows[0]).toMatchObject({
      status: 'failed',
      last_error: 'HTTP 410',
    });
  });

  it('a redirect is never followed: refused for good', async () => {
    const { receiver, config } = await receiverAndConfig();
    await storedEnquiry(config, false);
    const elsewhere = await startWebhookReceiver();
    closers.push(elsewhere.close);
    receiver.answerWith(307, { Location: elsewhere.url });
    expect(await webhookWorker(receiver.url).runOnce()).toBe(1);
    expect(elsewhere.received).toHaveLength(0);
    expect((await db.execute('SELECT status, last_error FROM webhook_events')).rows[0]).toMatchObject({
      status: 'failed',
      last_error: 'HTTP 307 (a redirect, not followed)',
    });
  });

  describe('the pace of a backlog', () => {
    /** `count` enquiries of their own (one event each), straight into the store. */
    async function backlog(count: number) {
      for (let index = 1; index <= count; index += 1)
        await storeEnquiry(
          db,
          newEnquiry({ ...valid, subject: `Ceiling down ${index}`, clientAddress: '203.0.113.9', tellCrm: true }),
          clock,
        );
    }
    const pacedWorker = (url: string, busy: () => boolean) =>
      createWebhookWorker({
        db,
        target: { url, secret: testWebhookSecret },
        siteUrl,
        pollMs: 1000,
        log: quiet,
        now: () => clock,
        batchPauseMs: 0,
        busyPauseMs: 60_000,
        serverBusy: busy,
      });

    it('while the server is not busy, the next batch follows the full one after the short pause', async () => {
      const { receiver } = await receiverAndConfig();
      await backlog(17);
      expect(await pacedWorker(receiver.url, () => false).runOnce()).toBe(17);
      expect(new Set(receiver.received.map((event) => event.id)).size).toBe(17);
    });

    it('while the server is busy, a full batch is followed by the long pause, which stop() cuts short', async () => {
      const { receiver } = await receiverAndConfig();
      await backlog(17);
      const worker = pacedWorker(receiver.url, () => true);
      const round = worker.runOnce();
      await vi.waitFor(() => expect(receiver.received).toHaveLength(16));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(16);
      await worker.stop();
      expect(await round).toBe(16);
      expect(Number((await db.execute("SELECT count(*) AS n FROM webhook_events WHERE status = 'pending'")).rows[0]?.n)).toBe(1);
    });
  });

  it('the gaps: short at first, a minute for the first quarter hour, then longer; given up after a day', () => {
    expect(nextAttemptDelayMs(0)).toBe(10_000);
    expect(nextAttemptDelayMs(5 * 60_000)).toBe(60_000);
    expect(nextAttemptDelayMs(30 * 60_000)).toBe(10 * 60_000);
    expect(nextAttemptDelayMs(5 * 60 * 60_000)).toBe(60 * 60_000);
    expect(nextAttemptDelayMs(0, 120_000)).toBe(120_000);
    expect(nextAttemptDelayMs(0, 30 * 24 * 60 * 60_000)).toBe(6 * 60 * 60_000);
    expect(GIVE_UP_AFTER_MS).toBeGreaterThanOrEqual(24 * 60 * 60_000);
  });
});
