import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { enquiryReference } from '@/lib/enquiry-reference';
import { LARGEST_BODY_BYTES } from '@/lib/enquiry-rules.mjs';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import type { EnquiryReceiverDeps } from '@/server/intake/receive-enquiry';
import { erasePersonalData } from '@/server/upkeep/data-requests';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { purgeExpired } from '@/server/upkeep/retention';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { startSmtpServer, tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';
import { multipartRequest } from '@/tests/support/multipart-request';
import { heicBytes, metadataTags, pdfBytes, phonePhoto, withPhoneExif } from '@/tests/support/photo-fixtures';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Ceiling down', message: 'The kitchen ceiling came down.' };

let db: Client;
let url: string;
let cleanup: () => void;
let photosRoot: string;
let gpsPhoto: Buffer;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  gpsPhoto = withPhoneExif(await phonePhoto(1));
}, 60_000);
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-photos-'));
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});
afterAll(() => undefined);

/** The enquiries' photo folders (not the folder uploads wait in while they are read). */
const photoFolders = () => readdirSync(photosRoot).filter((name) => name !== '.incoming');

function handler(extra: Partial<EnquiryReceiverDeps> = {}) {
  return createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined, photosRoot, ...extra });
}

const count = async (sql: string) => Number((await db.execute(sql)).rows[0]?.n);

/** The folder of an enquiry's photos: named by its submission key. */
const folderOf = async (id: number) =>
  path.join(
    photosRoot,
    String((await db.execute({ sql: 'SELECT submission_key FROM enquiries WHERE id = ?', args: [id] })).rows[0]?.submission_key),
  );

describe('damage photos sent with an enquiry', () => {
  it('three phone photos with GPS EXIF: stored re-encoded (≤ 2048 px JPEG) with no metadata at all, and attached to the notification', async () => {
    expect(gpsPhoto.length).toBeGreaterThan(2_000_000);
    expect(metadataTags(gpsPhoto)).toEqual(expect.arrayContaining(['EXIF:GPSLatitude', 'EXIF:GPSLongitude', 'EXIF:Make', 'XMP:Creator']));
    const photos = [
      { name: 'IMG_0001.jpg', bytes: gpsPhoto },
      { name: 'IMG_0002.JPG', bytes: gpsPhoto },
      {
        name: 'kitchen.png',
        bytes: await sharp(await phonePhoto(2, { width: 1200, height: 900 }))
          .png()
          .toBuffer(),
        type: 'image/png',
      },
    ];
    const { request } = await multipartRequest({ ...valid, postcode: 'g67 1ab', damageType: 'water-damage' }, photos);
    const result = await handler()(request);
    expect(result).toEqual({
      status: 201,
      body: { success: true, message: 'Your message has been sent successfully!', reference: enquiryReference(1) },
    });

    const rows = (await db.execute('SELECT position, original_name, file_name, width, height FROM enquiry_photos ORDER BY position')).rows;
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { position: 1, original_name: 'IMG_0001.jpg', file_name: '1.jpg', width: 2048, height: 1536 },
      { position: 2, original_name: 'IMG_0002.JPG', file_name: '2.jpg', width: 2048, height: 1536 },
      { position: 3, original_name: 'kitchen.png', file_name: '3.jpg', width: 1200, height: 900 },
    ]);
    for (const name of ['1.jpg', '2.jpg', '3.jpg']) {
      const stored = readFileSync(path.join(await folderOf(1), name));
      expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg' });
      expect((await sharp(stored).metadata()).exif).toBeUndefined();
      // Not a tag of any kind: no EXIF, GPS, XMP, IPTC or ICC.
      // Only the JFIF header every JPEG encoder writes (version, density).
      expect(metadataTags(stored).filter((tag) => !tag.startsWith('JFIF:'))).toEqual([]);
      expect(stored.includes(Buffer.from('Exif\0\0'))).toBe(false);
    }

    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    const worker = createOutboxWorker({
      db,
      mailer,
      from: 'website@homecare.test',
      to: 'office@homecare.test',
      pollMs: 60_000,
      photosRoot,
      log: () => undefined,
    });
    closers.push(() => worker.stop());
    expect(await worker.runOnce()).toBe(2);
    const notification = parseMail(smtp.received.find((mail) => mail.to.includes('office@homecare.test'))!.raw);
    expect(notification.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      ['photo-1.jpg', 'image/jpeg'],
      ['photo-2.jpg', 'image/jpeg'],
      ['photo-3.jpg', 'image/jpeg'],
    ]);
    for (const attachment of notification.attachments) {
      expect(attachment.content.equals(readFileSync(path.join(await folderOf(1), attachment.filename.replace('photo-', ''))))).toBe(true);
      expect(metadataTags(attachment.content).some((tag) => /GPS|EXIF:|XMP:/.test(tag))).toBe(false);
    }
    expect(notification.text).toMatch(/^Photos: 3, attached\.$/m);
    expect(notification.text).toContain('photo-1.jpg  2048x1536');
    expect(notification.text).toContain('(sent as "IMG_0001.jpg")');
    // The acknowledgement carries no photo.
    const acknowledgement = parseMail(smtp.received.find((mail) => mail.to.includes('jo@example.com'))!.raw);
    expect(acknowledgement.attachments).toEqual([]);
  }, 60_000);

  it.each([
    [
      'a PDF named .jpg',
      { name: 'report.jpg', bytes: pdfBytes() },
      422,
      '“report.jpg” is not a photo we can open. Please send JPEG, PNG or WebP photos.',
    ],
    [
      'an iPhone HEIC photo',
      { name: 'IMG_4711.HEIC', bytes: heicBytes(), type: 'image/heic' },
      422,
      '“IMG_4711.HEIC” is a HEIC photo, which we cannot open. Please send it as a JPEG: on an iPhone, choose it from Photos rather than Files, or set Settings › Camera › Formats to Most Compatible.',
    ],
  ])('%s is refused by its content, naming it, and nothing is stored', async (_, photo, status, message) => {
    const { request } = await multipartRequest(valid, [{ name: 'fine.jpg', bytes: gpsPhoto }, photo]);
    const result = await handler()(request);
    expect(result).toEqual({
      status,
      body: {
        success: false,
        message: 'Please correct the highlighted fields.',
        reason: 'invalid',
        errors: [{ path: 'photos', msg: message }],
      },
    });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
    expect(photoFolders()).toEqual([]);
  });

  it('a truncated JPEG is refused as unreadable, naming it', async () => {
    const truncated = gpsPhoto.subarray(0, Math.floor(gpsPhoto.length / 2));
    const { request } = await multipartRequest(valid, [{ name: 'cut-off.jpg', bytes: truncated }]);
    expect(await handler()(request)).toEqual({
      status: 422,
      body: {
        success: false,
        message: 'Please correct the highlighted fields.',
        reason: 'invalid',
        errors: [
          { path: 'photos', msg: '“cut-off.jpg” could not be read as a photo; it may be damaged. Please choose it again or leave it out.' },
        ],
      },
    });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });

  it('a 12 MB photo: 413 naming it, and the server stops reading soon after the 10 MB cap', async () => {
    const big = Buffer.concat([gpsPhoto, Buffer.alloc(12_000_000 - gpsPhoto.length, 7)]);
    const { request, counted } = await multipartRequest(valid, [
      { name: 'huge.jpg', bytes: big },
      { name: 'second.jpg', bytes: big },
    ]);
    expect(await handler()(request)).toMatchObject({
      status: 413,
      body: { errors: [{ path: 'photos', msg: '“huge.jpg” is larger than 10 MB. Please choose a smaller photo.' }] },
    });
    expect(counted.bytes).toBeLessThan(11_000_000);
    expect(counted.total).toBeGreaterThan(24_000_000);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });

  it('a seventh photo: 413, without reading it', async () => {
    const small = await phonePhoto(3, { width: 64, height: 48 });
    const photos = Array.from({ length: 7 }, (_, index) => ({ name: `p${index + 1}.jpg`, bytes: index === 6 ? gpsPhoto : small }));
    const { request, counted } = await multipartRequest(valid, photos);
    expect(await handler()(request)).toMatchObject({
      status: 413,
      body: { errors: [{ path: 'photos', msg: 'You can send up to 6 photos.' }] },
    });
    expect(counted.bytes).toBeLessThan(counted.total);
  });

  it('a body declared larger than every cap together: 413 before a byte is read', async () => {
    const { request, counted } = await multipartRequest(valid, [], { declareLength: LARGEST_BODY_BYTES + 1 });
    expect((await handler()(request)).status).toBe(413);
    expect(counted.bytes).toBe(0);
  });

  it('the claim and contact fields follow the same rules as in JSON: 422 before any photo is decoded', async () => {
    const { request } = await multipartRequest({ ...valid, email: 'nope', postcode: 'XX' }, [{ name: 'a.jpg', bytes: gpsPhoto }]);
    expect(await handler()(request)).toMatchObject({
      status: 422,
      body: {
        errors: [
          { path: 'email', msg: 'Please enter a valid email address' },
          { path: 'postcode', msg: 'Enter a UK postcode, like G67 1AB' },
        ],
      },
    });
  });

  it('a filled honeypot with photos: answered normally, kept as spam, its photos never decoded or stored', async () => {
    const { request } = await multipartRequest({ ...valid, website: 'http://spam.test' }, [{ name: 'a.jpg', bytes: gpsPhoto }]);
    expect((await handler()(request)).status).toBe(201);
    expect(await count('SELECT count(*) AS n FROM enquiry_photos')).toBe(0);
    expect(photoFolders()).toEqual([]);
  });

  it('retention and erasure delete the photos with their enquiry; npm run enquiries -- --photos ID --out DIR writes them', async () => {
    const handle = handler();
    const small = await phonePhoto(4, { width: 640, height: 480 });
    for (const email of ['jo@example.com', 'sam@example.org']) {
      const { request } = await multipartRequest({ ...valid, email }, [
        { name: 'a.jpg', bytes: small },
        { name: 'b.jpg', bytes: small },
      ]);
      expect((await handle(request)).status).toBe(201);
    }
    const [joFolder, samFolder] = [await folderOf(1), await folderOf(2)];
    expect(photoFolders().sort()).toEqual([path.basename(joFolder), path.basename(samFolder)].sort());

    const out = mkdtempSync(path.join(tmpdir(), 'homecare-photos-out-'));
    closers.push(() => rmSync(out, { recursive: true, force: true }));
    const written = await runToEnd(
      spawnTs('scripts/enquiries.ts', ['--photos', '2', '--out', out], { DATABASE_URL: url, ENQUIRY_PHOTOS_DIR: photosRoot }),
    );
    expect(written.code, written.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([`${enquiryReference(2)}-1.jpg`, `${enquiryReference(2)}-2.jpg`]);
    expect(readFileSync(path.join(out, `${enquiryReference(2)}-1.jpg`)).equals(readFileSync(path.join(samFolder, '1.jpg')))).toBe(true);

    const listed = await runToEnd(spawnTs('scripts/enquiries.ts', ['--json'], { DATABASE_URL: url }));
    expect((JSON.parse(listed.lines.join('\n')) as { photos: number }[]).map((entry) => entry.photos)).toEqual([2, 2]);

    expect(await erasePersonalData(db, 'jo@example.com', { photosRoot })).toEqual({
      enquiries: 1,
      emails: 2,
      photos: 2,
      portfolioLinks: 0,
    });
    expect(existsSync(joFolder)).toBe(false);
    expect(existsSync(samFolder)).toBe(true);
    expect(await purgeExpired(db, Date.parse('2099-01-01T00:00:00Z'), { photosRoot })).toMatchObject({ enquiries: 1 });
    expect(photoFolders()).toEqual([]);
    expect(await count('SELECT count(*) AS n FROM enquiry_photos')).toBe(0);
  }, 60_000);

  it('a photo folder no enquiry points at (a store that never committed) is removed by the retention job once an hour old', async () => {
    const small = await phonePhoto(5, { width: 320, height: 240 });
    const { request } = await multipartRequest(valid, [{ name: 'a.jpg', bytes: small }]);
    expect((await handler()(request)).status).toBe(201);
    const kept = path.basename(await folderOf(1));
    const orphan = path.join(photosRoot, '00000000-0000-4000-8000-000000000000');
    mkdirSync(orphan);
    writeFileSync(path.join(orphan, '1.jpg'), small);
    const soon = Date.now() + 10 * 60_000;
    await purgeExpired(db, soon, { photosRoot });
    expect(photoFolders().sort()).toEqual([kept, path.basename(orphan)].sort());
    await purgeExpired(db, Date.now() + 61 * 60_000, { photosRoot });
    expect(photoFolders()).toEqual([kept]);
  });
});
