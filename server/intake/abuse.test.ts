// What one hostile client could make the enquiry code do, and ordinary retries that must lose nothing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { CONTACT_RESPONSES, photoText } from '@/content/contact';
import { enquiryReference } from '@/lib/enquiry-reference';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import type { EnquiryReceiverDeps } from '@/server/intake/receive-enquiry';
import { DEFAULT_ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR as ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR } from '@/server/base/config.mjs';
import { erasePersonalData } from '@/server/upkeep/data-requests';
import { checkEnquiryHealth, publicHealth } from '@/server/reports/health';
import { createMailer } from '@/server/delivery/mailer';
import { clearIncomingUploads } from '@/server/intake/multipart-enquiry';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { incomingDirOf } from '@/server/ledger/photo-store';
import { photoStorageState } from '@/server/ledger/photo-storage';
import type { Verification } from '@/server/intake/recaptcha';
import { purgeExpired } from '@/server/upkeep/retention';
import { contactRequest, startSmtpServer, tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';
import { multipartRequest } from '@/tests/support/multipart-request';
import { phonePhoto } from '@/tests/support/photo-fixtures';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Ceiling down', message: 'The kitchen ceiling came down.' };

let db: Client;
let cleanup: () => void;
let photosRoot: string;
let photo: Buffer;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  photo = await phonePhoto(3, { width: 1600, height: 1200 });
}, 60_000);
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-abuse-'));
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});

function handler(env: Record<string, string> = {}, extra: Partial<EnquiryReceiverDeps> = {}) {
  return createContactHandler({ config: loadEnquiryConfig(env), db: async () => db, wake: () => undefined, photosRoot, ...extra });
}

const rows = async (sql: string) => (await db.execute(sql)).rows.map((row) => ({ ...row }));
const count = async (sql: string) => Number((await db.execute(sql)).rows[0]?.n);
const photoFolders = () => readdirSync(photosRoot).filter((name) => name !== '.incoming');
const incoming = () => (existsSync(incomingDirOf(photosRoot)) ? readdirSync(incomingDirOf(photosRoot)) : []);

/** A flat image of the given size: a few KB that declare many pixels. */
const flat = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } });

describe('photos judged from their headers before any decoding', () => {
  it('libvips keeps no decoded photo in its operation cache once the photo code is loaded', () => {
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, items: { max: 0 }, files: { max: 0 } });
  });

  it('a small JPEG that declares 16000x6250 pixels is refused unread, naming it; nothing is stored or left behind', async () => {
    const bomb = await flat(16000, 6250).jpeg({ quality: 10 }).toBuffer();
    expect(bomb.length).toBeLessThan(2_000_000);
    const { request } = await multipartRequest(valid, [{ name: 'bomb.jpg', bytes: bomb }]);
    const result = await handler()(request);
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ errors: [{ path: 'photos', msg: photoText.tooManyPixels('bomb.jpg') }] });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
    expect(photoFolders()).toEqual([]);
    expect(incoming()).toEqual([]);
  });

  it('GIF, AVIF and TIFF are refused as formats no camera sends, before decoding', async () => {
    const tiny = flat(640, 480);
    const files = [
      { name: 'anim.gif', bytes: await tiny.clone().gif().toBuffer(), type: 'image/gif' },
      { name: 'bomb.avif', bytes: await flat(160, 100).avif().toBuffer(), type: 'image/avif' },
      { name: 'scan.tiff', bytes: await tiny.clone().tiff().toBuffer(), type: 'image/tiff' },
    ];
    for (const file of files) {
      const { request } = await multipartRequest(valid, [file]);
      const result = await handler()(request);
      expect(result.status, file.name).toBe(422);
      expect(result.body).toMatchObject({ errors: [{ path: 'photos', msg: photoText.notAPhoto(file.name) }] });
    }
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });

  it('a 30 MP baseline JPEG is taken; a progressive JPEG or a PNG of the same size is held whole to decode and refused', async () => {
    const baseline = await flat(6000, 5000).jpeg({ quality: 30 }).toBuffer();
    const progressive = await flat(6000, 5000).jpeg({ quality: 30, progressive: true }).toBuffer();
    const png = await flat(6000, 5000).png({ compressionLevel: 9 }).toBuffer();
    const taken = await handler()((await multipartRequest(valid, [{ name: 'big.jpg', bytes: baseline }])).request);
    expect(taken.status).toBe(201);
    for (const [name, bytes] of [
      ['progressive.jpg', progressive],
      ['screen.png', png],
    ] as const) {
      const refused = await handler()((await multipartRequest({ ...valid, subject: name }, [{ name, bytes }])).request);
      expect(refused.body).toMatchObject({ errors: [{ path: 'photos', msg: photoText.tooManyPixels(name) }] });
    }
    expect(await rows('SELECT width, height FROM enquiry_photos')).toEqual([{ width: 2048, height: 1707 }]);
  }, 30_000);

  it('uploads left by a process that died are removed at start-up', async () => {
    const left = path.join(incomingDirOf(photosRoot), 'upload-abc123');
    mkdirSync(left, { recursive: true });
    writeFileSync(path.join(left, '0'), photo);
    await clearIncomingUploads(incomingDirOf(photosRoot));
    expect(incoming()).toEqual([]);
  });

  it("a spam trap's photos are neither decoded nor kept: its text is stored with how many were dropped", async () => {
    const { request } = await multipartRequest({ ...valid, website: 'https://spam.example' }, [
      { name: 'a.jpg', bytes: photo },
      { name: 'b.jpg', bytes: photo },
    ]);
    expect((await handler()(request)).status).toBe(201);
    expect(await rows('SELECT disposition, photos_dropped, photos_dropped_reason FROM enquiries')).toEqual([
      { disposition: 'spam', photos_dropped: 2, photos_dropped_reason: 'spam' },
    ]);
    expect(await count('SELECT count(*) AS n FROM enquiry_photos')).toBe(0);
    expect(photoFolders()).toEqual([]);
    expect(incoming()).toEqual([]);
  });
});

describe('acknowledgements cannot be aimed at other people', () => {
  const acknowledgements = () => count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'acknowledgement'");
  const notifications = () => count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'");

  it('one per recipient address a day, whatever the client and the case or form of the address', async () => {
    const handle = handler();
    for (const [index, email] of ['victim@example.net', 'Victim@Example.NET', ' victim@example.net'].entries())
      expect((await handle(contactRequest({ ...valid, email, message: `Water is coming in, try ${index + 1}.` }))).status).toBe(201);
    expect(await notifications()).toBe(3);
    expect(await acknowledgements()).toBe(1);
  });

  it('at most ENQUIRY_ACKNOWLEDGE_PER_HOUR in all; beyond it enquiries are still stored and notified', async () => {
    const handle = handler({ ENQUIRY_ACKNOWLEDGE_PER_HOUR: '2' });
    for (const index of [1, 2, 3, 4])
      expect((await handle(contactRequest({ ...valid, email: `person${index}@example.net` }))).status).toBe(201);
    expect(await notifications()).toBe(4);
    expect(await acknowledgements()).toBe(2);
  });

  it(`each client gets at most ${ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR} an hour (an IPv6 client by its /64), so two cannot spend the hour's budget`, async () => {
    const handle = handler();
    const acknowledgedFor = async (email: string) =>
      count(
        `SELECT count(*) AS n FROM enquiry_notifications n JOIN enquiries e ON e.id = n.enquiry_id WHERE kind = 'acknowledgement' AND e.email = '${email}'`,
      );
    // Two clients at the enquiry rate limit (5 per 10 minutes), each to five different recipients; the
    // second rotates through addresses of its /64.
    const clients = [
      Array(5).fill('192.0.2.7'),
      ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:DB8:1:2:0:0:0:3', '2001:db8:1:2::4', '2001:db8:1:2::5'],
    ];
    for (const [client, addresses] of clients.entries())
      for (const [index, address] of addresses.entries())
        expect((await handle(contactRequest({ ...valid, email: `bulk${client}-${index}@example.net` }, { address }))).status).toBe(201);
    expect(await acknowledgements()).toBe(2 * ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR);
    expect(await notifications()).toBe(10);

    // A genuine customer from a third address still gets theirs, as does one from another /64.
    expect((await handle(contactRequest({ ...valid, email: 'customer@example.net' }, { address: '198.51.100.20' }))).status).toBe(201);
    expect((await handle(contactRequest({ ...valid, email: 'neighbour@example.net' }, { address: '2001:db8:1:3::1' }))).status).toBe(201);
    expect(await acknowledgedFor('customer@example.net')).toBe(1);
    expect(await acknowledgedFor('neighbour@example.net')).toBe(1);

    // An hour later the first client has its share again.
    const later = handler({}, { now: () => Date.now() + 61 * 60_000 });
    expect((await later(contactRequest({ ...valid, email: 'bulk0-later@example.net' }, { address: '192.0.2.7' }))).status).toBe(201);
    expect(await acknowledgedFor('bulk0-later@example.net')).toBe(1);
  });

  it('with reCAPTCHA on, unverified enquiries are not acknowledged and spend none of the budget', async () => {
    const verdicts: Verification[] = [
      ...Array.from({ length: 4 }, () => ({ kind: 'unreachable', detail: 'timeout' }) as const),
      { kind: 'verified', score: 0.9 },
      { kind: 'verified', score: 0.9 },
    ];
    const handle = handler(
      { RECAPTCHA_PROJECT_ID: 'p', RECAPTCHA_API_KEY: 'k', NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 's', ENQUIRY_ACKNOWLEDGE_PER_HOUR: '2' },
      { verify: async () => verdicts.shift()! },
    );
    // Four unverified enquiries, two of them from the address the verified ones then come from.
    for (const [index, address] of ['192.0.2.8', '192.0.2.8', '192.0.2.9', '192.0.2.10'].entries())
      expect(
        (await handle(contactRequest({ ...valid, email: `unverified${index}@example.net`, recaptchaToken: 't'.repeat(40) }, { address })))
          .status,
      ).toBe(201);
    for (const email of ['first@example.net', 'second@example.net'])
      expect((await handle(contactRequest({ ...valid, email, recaptchaToken: 't'.repeat(40) }, { address: '192.0.2.8' }))).status).toBe(
        201,
      );
    expect(await notifications()).toBe(6);
    expect(
      await rows(
        "SELECT e.email, e.verification FROM enquiry_notifications n JOIN enquiries e ON e.id = n.enquiry_id WHERE kind = 'acknowledgement' ORDER BY e.id",
      ),
    ).toEqual([
      { email: 'first@example.net', verification: 'verified' },
      { email: 'second@example.net', verification: 'verified' },
    ]);
  });

  it('with reCAPTCHA on, only verified enquiries are acknowledged', async () => {
    const verdicts: Verification[] = [
      { kind: 'verified', score: 0.9 },
      { kind: 'unreachable', detail: 'timeout' },
    ];
    const handle = handler(
      { RECAPTCHA_PROJECT_ID: 'p', RECAPTCHA_API_KEY: 'k', NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 's' },
      { verify: async () => verdicts.shift()! },
    );
    for (const email of ['one@example.net', 'two@example.net'])
      expect((await handle(contactRequest({ ...valid, email, recaptchaToken: 't'.repeat(40) }))).status).toBe(201);
    expect(
      await rows("SELECT e.email FROM enquiry_notifications n JOIN enquiries e ON e.id = n.enquiry_id WHERE kind = 'acknowledgement'"),
    ).toEqual([{ email: 'one@example.net' }]);
  });
});

describe('a retry brings what the first try lacked', () => {
  it('the same text again with 2 photos: same reference, the photos kept on the stored enquiry, one notification', async () => {
    const handle = handler();
    const address = '192.0.2.40';
    const first = await handle(contactRequest(valid, { address }));
    const { request } = await multipartRequest(
      valid,
      [
        { name: 'a.jpg', bytes: photo },
        { name: 'b.jpg', bytes: photo },
      ],
      { address },
    );
    const retry = await handle(request);
    expect(retry).toEqual(first);
    expect(first.body).toMatchObject({ reference: enquiryReference(1) });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(1);
    expect(await rows('SELECT enquiry_id, position FROM enquiry_photos ORDER BY position')).toEqual([
      { enquiry_id: 1, position: 1 },
      { enquiry_id: 1, position: 2 },
    ]);
    expect(photoFolders()).toHaveLength(1);
    expect(readdirSync(path.join(photosRoot, photoFolders()[0]!)).sort()).toEqual(['1.jpg', '2.jpg']);
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).toBe(1);
    // A third try with other photos changes nothing: the stored ones stay, the new files go.
    const third = await handle((await multipartRequest(valid, [{ name: 'c.jpg', bytes: photo }], { address })).request);
    expect(third).toEqual(first);
    expect(await count('SELECT count(*) AS n FROM enquiry_photos')).toBe(2);
    expect(photoFolders()).toHaveLength(1);
  });

  it('a low-scoring first try then a verified retry: the stored enquiry is accepted and notified exactly once', async () => {
    const verdicts: Verification[] = [
      { kind: 'low-score', score: 0.1 },
      { kind: 'verified', score: 0.9 },
      { kind: 'verified', score: 0.9 },
    ];
    let woken = 0;
    const handle = handler(
      { RECAPTCHA_PROJECT_ID: 'p', RECAPTCHA_API_KEY: 'k', NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 's' },
      { verify: async () => verdicts.shift()!, wake: () => void (woken += 1) },
    );
    const body = { ...valid, recaptchaToken: 't'.repeat(40) };
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await handle(contactRequest(body, { address: '192.0.2.41' }))).status).toBe(201);
    expect(await rows('SELECT disposition, verification, recaptcha_score FROM enquiries')).toEqual([
      { disposition: 'accepted', verification: 'verified', recaptcha_score: 0.9 },
    ]);
    expect(await rows('SELECT kind FROM enquiry_notifications ORDER BY id')).toEqual([
      { kind: 'notification' },
      { kind: 'acknowledgement' },
    ]);
    expect(woken).toBeGreaterThan(0);
  });
});

describe('the photo storage has a budget and a free-space floor', () => {
  for (const [label, env] of [
    ['past ENQUIRY_PHOTOS_MAX_MB', { ENQUIRY_PHOTOS_MAX_MB: '0' }],
    ['below ENQUIRY_PHOTOS_MIN_FREE_MB', { ENQUIRY_PHOTOS_MIN_FREE_MB: '10000000' }],
  ] as const) {
    it(`${label}: the text is stored and notified, the photos are not written, the visitor and the health check are told`, async () => {
      const { request } = await multipartRequest(valid, [{ name: 'a.jpg', bytes: photo }]);
      const result = await handler(env)(request);
      expect(result).toEqual({
        status: 201,
        body: { success: true, message: CONTACT_RESPONSES.success, reference: enquiryReference(1), photosNotKept: 1 },
      });
      expect(await rows('SELECT photos_dropped, photos_dropped_reason FROM enquiries')).toEqual([
        { photos_dropped: 1, photos_dropped_reason: 'storage-full' },
      ]);
      expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).toBe(1);
      expect(photoFolders()).toEqual([]);
      expect(incoming()).toEqual([]);
      const config = loadEnquiryConfig(env);
      const limits = { maxBytes: config.photosMaxBytes, minFreeBytes: config.photosMinFreeBytes };
      const health = await checkEnquiryHealth(async () => db, { photoStorage: (client) => photoStorageState(client, photosRoot, limits) });
      expect(publicHealth(health).body).toEqual({ status: 'unhealthy', problems: ['photo-storage-full'], lastDigestAt: null });
    });
  }
});

describe('notifications too large for the relay', () => {
  it('a relay that answers 552 gets the notification again at once without attachments, the photos listed', async () => {
    const big = await phonePhoto(4, { width: 2048, height: 1536 });
    const { request } = await multipartRequest(valid, [
      { name: 'a.jpg', bytes: big },
      { name: 'b.jpg', bytes: big },
    ]);
    expect((await handler({ ENQUIRY_ACKNOWLEDGE: 'off' })(request)).status).toBe(201);
    const smtp = await startSmtpServer(0, { maxMessageBytes: 200_000 });
    closers.push(() => smtp.close());
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    const lines: string[] = [];
    const worker = createOutboxWorker({
      db,
      mailer,
      from: 'site@homecare.test',
      to: 'office@homecare.test',
      pollMs: 60_000,
      photosRoot,
      log: (line) => lines.push(line),
    });
    expect(await worker.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const mail = parseMail(smtp.received[0]!.raw);
    expect(mail.attachments).toEqual([]);
    expect(mail.text).toContain('Photos: 2, 0 attached; 2 (');
    expect(mail.text).toContain('too large for one e-mail. On the server: npm run enquiries -- --photos 1 --out DIR');
    expect(lines.some((line) => line.includes('refused the message for its size'))).toBe(true);
    expect(await rows("SELECT status FROM enquiry_notifications WHERE kind = 'notification'")).toEqual([{ status: 'sent' }]);
  }, 30_000);
});

describe('saved copies and addresses under retention and erasure', () => {
  it('the .eml files the folder mailer saved go with their enquiry, on erasure and on retention', async () => {
    const outboxDir = path.join(photosRoot, 'outbox');
    const handle = handler();
    expect((await handle(contactRequest(valid))).status).toBe(201);
    expect((await handle(contactRequest({ ...valid, email: 'sam@example.org' }))).status).toBe(201);
    const mailer = createMailer({ smtpUrl: null, outboxDir });
    const worker = createOutboxWorker({ db, mailer, from: 'site@homecare.test', to: 'office@homecare.test', pollMs: 60_000, photosRoot });
    expect(await worker.runOnce()).toBe(4);
    expect(readdirSync(outboxDir)).toHaveLength(4);

    await erasePersonalData(db, 'JO@example.com', { photosRoot, outboxDir });
    expect(readdirSync(outboxDir).every((name) => /^(?:enquiry|acknowledgement)-2\./.test(name))).toBe(true);
    expect(readdirSync(outboxDir)).toHaveLength(2);

    const muchLater = Date.now() + 400 * 24 * 60 * 60_000;
    expect(await purgeExpired(db, muchLater, { photosRoot, outboxDir })).toMatchObject({ enquiries: 1 });
    expect(readdirSync(outboxDir)).toEqual([]);
  });

  it('addresses are compared NFC and case-folded: Jörg@ (composed) is erased as JÖRG@ (decomposed)', async () => {
    const handle = handler();
    expect((await handle(contactRequest({ ...valid, email: 'Jörg@example.de' }))).status).toBe(201);
    expect((await handle(contactRequest({ ...valid, email: 'strasse@example.de' }))).status).toBe(201);
    const decomposed = 'JÖRG@EXAMPLE.DE'.normalize('NFD');
    expect(await erasePersonalData(db, decomposed, { photosRoot, outboxDir: path.join(photosRoot, 'outbox') })).toMatchObject({
      enquiries: 1,
    });
    expect(await erasePersonalData(db, 'STRAßE@example.de', { photosRoot, outboxDir: path.join(photosRoot, 'outbox') })).toMatchObject({
      enquiries: 1,
    });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });
});
