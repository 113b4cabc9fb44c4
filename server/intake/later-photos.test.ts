// Photos added later from a claim's status page, against a real database and the outbox worker: the
// enquiry form's checks and re-encoding (a phone photo's EXIF gone), one "More photos for HC-…"
// follow-up per batch and exactly once, the claim's room, and the responds with and without script.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statusText } from '@/content/claims';
import { laterPhotosText } from '@/content/later-photos';
import { CONTACT_RESPONSES } from '@/content/contact';
import { enquiryReference } from '@/lib/enquiry-reference';
import { CLAIM_PHOTOS_MAX } from '@/lib/enquiry-rules.mjs';
import { claimSessionValue } from '@/server/claims/claim-links';
import { createLaterPhotos } from '@/server/intake/later-photos';
import { createLaterPhotosHandler } from '@/server/intake/later-photos-handler';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { erasePersonalData, exportPersonalData } from '@/server/upkeep/data-requests';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { multipartRequest, type Photo } from '@/tests/support/multipart-request';
import { metadataTags, pdfBytes, phonePhoto, withPhoneExif } from '@/tests/support/photo-fixtures';
import { submitEnquiry, typedEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
let photosRoot: string;
let outbox: string;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-later-photos-'));
  outbox = mkdtempSync(path.join(tmpdir(), 'homecare-later-outbox-'));
});
afterEach(() => {
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
  rmSync(outbox, { recursive: true, force: true });
});

const config = loadEnquiryConfig({});
const quiet = () => undefined;

const storedEnquiry = async (photos: Photo[] = []) => (await submitEnquiry(db, {}, { photosRoot, photos })).id;

const receiver = () => createLaterPhotos({ config, db: async () => db, wake: quiet, photosRoot });

/** The claim a post names by the reference in its address, and the status page's cookie it carries. */
type Opened = { reference: string; session: string | undefined };

/** A claim opened as its status page opens it: its reference, and the cookie its link was traded for. */
const openedClaim = async (id: number): Promise<Opened> => ({
  reference: enquiryReference(id),
  session: (await claimSessionValue(db, 'status', id, Date.now())) ?? undefined,
});

async function send(
  handle: (request: Request, reference: string, session: string | undefined) => Promise<Response>,
  claim: Opened,
  photos: Photo[],
  accept = 'application/json',
  address?: string,
) {
  const { request } = await multipartRequest({}, photos, { accept, ...(address ? { address } : {}) });
  return handle(request, claim.reference, claim.session);
}

const worker = () =>
  createOutboxWorker({
    db,
    mailer: createMailer({ smtpUrl: null, outboxDir: outbox }),
    from: 'site@example.com',
    to: 'office@example.com',
    pollMs: 1000,
    log: quiet,
    photosRoot,
  });

const mails = () =>
  readdirSync(outbox)
    .sort()
    .map((name) => parseMail(readFileSync(path.join(outbox, name), 'utf8')));

describe('more photos later', () => {
  it('a phone photo is re-encoded without its metadata and reaches the company once, in its own follow-up', async () => {
    const id = await storedEnquiry([{ name: 'first.jpg', bytes: await phonePhoto(1, { width: 800, height: 600 }) }]);
    const claim = await openedClaim(id);
    // The notification and the acknowledgement.
    expect(await worker().runOnce()).toBe(2);

    const handle = createLaterPhotosHandler(receiver());
    const photo = withPhoneExif(await phonePhoto(2));
    expect(metadataTags(photo).some((tag) => tag.startsWith('EXIF:'))).toBe(true);
    const answer = await send(handle, claim, [{ name: 'IMG_2041.jpg', bytes: photo }]);
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({
      success: true,
      message: laterPhotosText.added(1, enquiryReference(id)),
      reference: enquiryReference(id),
      count: 1,
    });

    expect(await worker().runOnce()).toBe(1);
    expect(await worker().runOnce()).toBe(0);
    expect(mails()).toHaveLength(3);
    const followUp = mails().find((mail) => mail.subject === `More photos for ${enquiryReference(id)}`);
    expect(followUp?.text).toContain("The customer added these photos later, from the claim's status page");
    expect(followUp?.attachments).toHaveLength(1);
    const attached = followUp!.attachments[0]!.content;
    expect(metadataTags(attached).filter((tag) => /^(?:EXIF|XMP|IPTC|MakerNotes):/.test(tag))).toEqual([]);
    expect(attached.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('each batch is its own follow-up with its own photos; the photos sent with the enquiry stay in its notification', async () => {
    const id = await storedEnquiry([{ name: 'first.jpg', bytes: await phonePhoto(1, { width: 640, height: 480 }) }]);
    const claim = await openedClaim(id);
    const handle = createLaterPhotosHandler(receiver());
    expect((await send(handle, claim, [{ name: 'second.jpg', bytes: await phonePhoto(2, { width: 640, height: 480 }) }])).status).toBe(201);
    const two = [3, 4].map(async (seed) => ({ name: `batch-${seed}.jpg`, bytes: await phonePhoto(seed, { width: 640, height: 480 }) }));
    expect((await send(handle, claim, await Promise.all(two))).status).toBe(201);

    // The notification (and acknowledgement) were still waiting: it carries the enquiry's own photo, each batch its own.
    expect(await worker().runOnce()).toBe(4);
    expect(await worker().runOnce()).toBe(0);
    const sent = mails();
    const notification = sent.find((mail) => mail.headers.to === 'office@example.com' && !mail.subject.startsWith('More photos'))!;
    // Attached by position: photo-1.jpg is the enquiry's own.
    expect(notification.attachments.map((file) => file.filename)).toEqual(['photo-1.jpg']);
    const followUps = sent.filter((mail) => mail.subject === `More photos for ${enquiryReference(id)}`);
    expect(followUps.map((mail) => mail.attachments.map((file) => file.filename)).sort()).toEqual([
      ['photo-2.jpg'],
      ['photo-3.jpg', 'photo-4.jpg'],
    ]);
    expect(new Set(followUps.map((mail) => mail.headers['message-id'])).size).toBe(2);
    for (const name of ['second.jpg', 'batch-3.jpg', 'batch-4.jpg']) expect(followUps.map((mail) => mail.text).join('\n')).toContain(name);
  });

  it('refuses what the enquiry form refuses, an unknown link, and more photos than a claim may hold', async () => {
    const id = await storedEnquiry();
    const claim = await openedClaim(id);
    const handle = createLaterPhotosHandler(receiver());
    const pdf = await send(handle, claim, [{ name: 'scan.jpg', bytes: pdfBytes() }]);
    expect(pdf.status).toBe(422);
    expect(await pdf.json()).toMatchObject({ success: false, reason: 'not-a-photo', message: expect.stringContaining('scan.jpg') });
    const none = await send(handle, claim, []);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ reason: 'none', message: laterPhotosText.outcomes.none });
    // A post whose cookie opens no claim by the reference in its address (none, forged, expired, another
    // claim's) is answered before a byte of the photos is read.
    const other = await openedClaim(await storedEnquiry());
    const openers: Opened[] = [
      { reference: claim.reference, session: undefined },
      { reference: claim.reference, session: `${Date.now() + 60_000}.${'A'.repeat(32)}` },
      { reference: claim.reference, session: (await claimSessionValue(db, 'status', id, Date.now() - 13 * 60 * 60_000)) ?? undefined },
      { reference: claim.reference, session: other.session },
      { reference: other.reference, session: claim.session },
    ];
    for (const opener of openers) {
      const { request, counted } = await multipartRequest({}, [{ name: 'a.jpg', bytes: await phonePhoto(5) }], {
        accept: 'application/json',
        address: '10.9.1.5',
      });
      const forged = await handle(request, opener.reference, opener.session);
      expect(forged.status).toBe(404);
      expect(await forged.json()).toMatchObject({ message: statusText.notFound });
      expect(counted.bytes).toBe(0);
    }

    const small = await phonePhoto(6, { width: 64, height: 48 });
    const six = Array.from({ length: 6 }, (_, index) => ({ name: `p${index}.jpg`, bytes: small }));
    const generous = createLaterPhotosHandler(
      createLaterPhotos({ config: loadEnquiryConfig({ CONTACT_RATE_LIMIT: '100' }), db: async () => db, wake: quiet, photosRoot }),
    );
    for (let batch = 0; batch < CLAIM_PHOTOS_MAX / 6; batch += 1) expect((await send(generous, claim, six)).status).toBe(201);
    const over = await send(generous, claim, six.slice(0, 1));
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ reason: 'full', message: laterPhotosText.roomLeft(0) });
    expect(Number((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n)).toBe(CLAIM_PHOTOS_MAX);
  });

  it('a spam enquiry keeps none, and is answered, and runs out of room, exactly as an accepted one', async () => {
    const { id } = await submitEnquiry(db, { website: 'https://spam.example' }, { photosRoot, photos: [] });
    const claim = await openedClaim(id);
    const generous = createLaterPhotosHandler(
      createLaterPhotos({ config: loadEnquiryConfig({ CONTACT_RATE_LIMIT: '100' }), db: async () => db, wake: quiet, photosRoot }),
    );
    const small = await phonePhoto(10, { width: 64, height: 48 });
    const six = Array.from({ length: 6 }, (_, index) => ({ name: `p${index}.jpg`, bytes: small }));
    const added = await send(generous, claim, six);
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ success: true, count: 6, message: laterPhotosText.added(6, enquiryReference(id)) });
    for (let batch = 1; batch < CLAIM_PHOTOS_MAX / 6; batch += 1) expect((await send(generous, claim, six)).status).toBe(201);
    const over = await send(generous, claim, six.slice(0, 1));
    expect(await over.json()).toMatchObject({ reason: 'full', message: laterPhotosText.roomLeft(0) });
    expect(Number((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n)).toBe(0);
    expect(Number((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'photos'")).rows[0]?.n)).toBe(0);
  });

  it('a file left at the next position by a crash does not block the next batch', async () => {
    const id = await storedEnquiry();
    const claim = await openedClaim(id);
    const key = String(
      (await db.execute({ sql: 'SELECT submission_key FROM enquiries WHERE id = ?', args: [id] })).rows[0]?.submission_key,
    );
    mkdirSync(path.join(photosRoot, key), { recursive: true });
    writeFileSync(path.join(photosRoot, key, '1.jpg'), 'left by a crash');
    const handle = createLaterPhotosHandler(receiver());
    expect((await send(handle, claim, [{ name: 'a.jpg', bytes: await phonePhoto(11, { width: 64, height: 48 }) }])).status).toBe(201);
  });

  it('without script, the answer goes back to the status page by reference (no token) saying what became of the photos, never with anything typed', async () => {
    const id = await storedEnquiry();
    const claim = await openedClaim(id);
    const handle = createLaterPhotosHandler(receiver());
    const added = await send(
      handle,
      claim,
      [{ name: 'My kitchen.jpg', bytes: await phonePhoto(7, { width: 64, height: 48 }) }],
      'text/html',
    );
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`/claims/${enquiryReference(id)}?photos=added&count=1`);
    const refused = await send(handle, claim, [{ name: 'My kitchen.jpg', bytes: pdfBytes() }], 'text/html');
    expect(refused.headers.get('location')).toBe(`/claims/${enquiryReference(id)}?photos=not-a-photo`);
    const unknown = await send(handle, { reference: 'nonsense', session: claim.session }, [], 'text/html');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(statusText.notFound.replace(/'/g, '&#39;'));
  });

  it('over the client’s own budget, it is told so and when to try again, as the enquiry form is: not that the site is busy', async () => {
    const id = await storedEnquiry();
    const claim = await openedClaim(id);
    const visitor = '10.9.1.21';
    const photo = async (seed: number) => [{ name: `p${seed}.jpg`, bytes: await phonePhoto(seed, { width: 64, height: 48 }) }];
    const oneBatch = createLaterPhotos({
      config: loadEnquiryConfig({ CONTACT_RATE_LIMIT: '1' }),
      db: async () => db,
      wake: quiet,
      photosRoot,
    });
    const handle = createLaterPhotosHandler(oneBatch);
    expect((await send(handle, claim, await photo(21), 'application/json', visitor)).status).toBe(201);

    // The words /api/contact answers its own 429 with (the spec's).
    expect(CONTACT_RESPONSES.tooMany).toBe('Too many requests. Please try again later.');
    const scripted = await send(handle, claim, await photo(22), 'application/json', visitor);
    expect(scripted.status).toBe(429);
    const wait = Number(scripted.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(config.rateWindowMs / 1000);
    expect(await scripted.json()).toEqual({
      success: false,
      message: CONTACT_RESPONSES.tooMany,
      reason: 'rate-limited',
      retryAfterSeconds: wait,
    });

    // Without script: a page that says so, with the same wait.
    const page = await send(handle, claim, await photo(23), 'text/html', visitor);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    const html = await page.text();
    expect(html).toContain(CONTACT_RESPONSES.tooMany);
    expect(html).not.toContain(laterPhotosText.outcomes.busy);

    // Two batches that passed the early check together: the second is refused once read, and without
    // script goes back to the status page, which says the same.
    const together = createLaterPhotosHandler({ ...oneBatch, turnAway: () => undefined });
    const raced = await send(together, claim, await photo(24), 'text/html', visitor);
    expect(raced.status).toBe(303);
    expect(raced.headers.get('location')).toBe(`/claims/${enquiryReference(id)}?photos=rate-limited`);
    expect(laterPhotosText.outcomes['rate-limited']).toBe(CONTACT_RESPONSES.tooMany);
    const racedScripted = await send(together, claim, await photo(25), 'application/json', visitor);
    expect(await racedScripted.json()).toMatchObject({ reason: 'rate-limited', message: CONTACT_RESPONSES.tooMany });
    expect(Number(racedScripted.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n)).toBe(1);
  });

  it('over the client’s budget of refused posts, it is told so before a byte is read', async () => {
    const id = await storedEnquiry();
    const claim = await openedClaim(id);
    const handle = createLaterPhotosHandler(
      createLaterPhotos({
        config,
        refusedLimiter: createRateLimiter({ limit: 1, windowMs: 60_000 }),
        db: async () => db,
        wake: quiet,
        photosRoot,
      }),
    );
    const visitor = '10.9.1.26';
    expect((await send(handle, claim, [{ name: 'scan.jpg', bytes: pdfBytes() }], 'application/json', visitor)).status).toBe(422);
    const { request, counted } = await multipartRequest({}, [{ name: 'a.jpg', bytes: await phonePhoto(26) }], {
      accept: 'application/json',
      address: visitor,
    });
    const refused = await handle(request, claim.reference, claim.session);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      success: false,
      message: CONTACT_RESPONSES.tooMany,
      reason: 'rate-limited',
      retryAfterSeconds: Number(refused.headers.get('retry-after')),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(counted.bytes).toBe(0);
  });

  it('each use of the link is kept with the enquiry, exported with a data request and erased with it', async () => {
    const id = await storedEnquiry();
    const claim = await openedClaim(id);
    const handle = createLaterPhotosHandler(receiver());
    await send(handle, claim, [{ name: 'a.jpg', bytes: await phonePhoto(8, { width: 64, height: 48 }) }]);
    await send(handle, claim, [{ name: 'b.jpg', bytes: await phonePhoto(9, { width: 64, height: 48 }) }]);
    const exported = await exportPersonalData(db, typedEnquiry.email);
    expect(exported.enquiries[0]?.linkUses).toEqual([{ link: 'status', use: 'photos', minute: expect.any(String), uses: 2 }]);
    await erasePersonalData(db, typedEnquiry.email, { photosRoot, outboxDir: outbox });
    expect(Number((await db.execute('SELECT count(*) AS n FROM claim_link_uses')).rows[0]?.n)).toBe(0);
    expect(Number((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n)).toBe(0);
  });
});
