// The signed links to an enquiry's photos in its CRM events, against a real database and photos folder:
// each serves its one stored photo (without the phone's metadata) and nothing once forged, moved to
// another photo, expired or erased.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPhotoLinkRoute, PHOTO_LINK_PREFIX, PHOTO_LINK_TTL_MS, photoLinks, photoOfLink } from '@/server/crm/photo-links';
import { erasePersonalData } from '@/server/upkeep/data-requests';
import { responseHeaders } from '@/server/edge/response-headers.mjs';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { type Photo } from '@/tests/support/multipart-request';
import { metadataTags, phonePhoto, withPhoneExif } from '@/tests/support/photo-fixtures';
import { submitEnquiry, typedEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
let photosRoot: string;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-photo-links-'));
});
afterEach(() => {
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});

const SITE = 'https://www.example.co.uk';
const SENT_AT = Date.parse('2026-03-02T09:00:00Z');

const storedEnquiry = async (photos: Photo[]) => (await submitEnquiry(db, {}, { photosRoot, photos })).id;

const phonePhotos = (count: number) =>
  Promise.all(
    Array.from({ length: count }, async (_, index) => ({
      name: `IMG_20${index}.jpg`,
      bytes: withPhoneExif(await phonePhoto(index + 1, { width: 800, height: 600 })),
    })),
  );

async function storedFile(enquiryId: number, position: number): Promise<Buffer> {
  const { rows } = await db.execute({
    sql: `SELECT e.submission_key AS folder, p.file_name AS file FROM enquiry_photos p JOIN enquiries e ON e.id = p.enquiry_id
          WHERE p.enquiry_id = ? AND p.position = ?`,
    args: [enquiryId, position],
  });
  return readFileSync(path.join(photosRoot, String(rows[0]!.folder), String(rows[0]!.file)));
}

const tokenOf = (url: string) => url.slice(url.indexOf(PHOTO_LINK_PREFIX) + PHOTO_LINK_PREFIX.length);

async function open(token: string, now: number): Promise<Response> {
  const route = createPhotoLinkRoute({ db: async () => db, photosRoot, now: () => now });
  return route.GET(new Request(`${SITE}${PHOTO_LINK_PREFIX}${token}`), { params: Promise.resolve({ token }) });
}

async function expectRefused(token: string, now: number) {
  expect(await photoOfLink(db, token, now, photosRoot)).toBeNull();
  const answer = await open(token, now);
  expect(answer.status).toBe(404);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await answer.text()).toBe('Not found');
}

describe('photo links', () => {
  it('serve the stored photo, without the phone’s metadata, as an inline JPEG nobody keeps', async () => {
    const uploaded = await phonePhotos(1);
    expect(metadataTags(uploaded[0]!.bytes).some((tag) => tag.startsWith('EXIF:'))).toBe(true);
    const id = await storedEnquiry(uploaded);
    const links = await photoLinks(db, SITE, id, { now: SENT_AT });
    const stored = await storedFile(id, 1);
    expect(links).toEqual([
      {
        position: 1,
        url: expect.stringMatching(new RegExp(`^${SITE}${PHOTO_LINK_PREFIX}${id}\\.1\\.\\d+\\.[A-Za-z0-9_-]{32}$`)),
        width: 800,
        height: 600,
        bytes: stored.byteLength,
        expiresAt: new Date(SENT_AT + PHOTO_LINK_TTL_MS).toISOString(),
      },
    ]);

    const answer = await open(tokenOf(links[0]!.url), SENT_AT + PHOTO_LINK_TTL_MS - 1000);
    expect(answer.status).toBe(200);
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      'content-type': 'image/jpeg',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="photo-1.jpg"',
      'content-length': String(stored.byteLength),
    });
    const served = Buffer.from(await answer.arrayBuffer());
    expect(served.equals(stored)).toBe(true);
    expect(metadataTags(served).filter((tag) => /^(?:EXIF|XMP|IPTC|MakerNotes|GPS):/.test(tag))).toEqual([]);
    expect(served.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('the server keeps a link out of search engines and other sites’ referrers', async () => {
    const id = await storedEnquiry(await phonePhotos(1));
    const [link] = await photoLinks(db, SITE, id, { now: SENT_AT });
    const headers = responseHeaders({
      manifest: { version: 1, pages: {}, crmOrigin: '', apiOrigin: '', recaptcha: false },
      pathname: new URL(link!.url).pathname,
      status: 200,
      contentType: 'image/jpeg',
      existingCacheControl: 'private, no-store',
      https: true,
    });
    expect(headers).toMatchObject({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'private, no-store' });
    expect(headers['X-Robots-Tag']).toContain('noindex');
  });

  it('give each photo its own link, only for the positions asked for, in order', async () => {
    const id = await storedEnquiry(await phonePhotos(3));
    const positions = async (options: { from?: number; until?: number }) =>
      (await photoLinks(db, SITE, id, { ...options, now: SENT_AT })).map((link) => link.position);
    expect(await positions({})).toEqual([1, 2, 3]);
    expect(await positions({ from: 2 })).toEqual([2, 3]);
    expect(await positions({ until: 3 })).toEqual([1, 2]);
    expect(await positions({ from: 2, until: 3 })).toEqual([2]);
    expect(await photoLinks(db, SITE, id + 1, { now: SENT_AT })).toEqual([]);

    for (const link of await photoLinks(db, SITE, id, { now: SENT_AT })) {
      const answer = await open(tokenOf(link.url), SENT_AT);
      expect(answer.headers.get('content-disposition')).toBe(`inline; filename="photo-${link.position}.jpg"`);
      expect(Buffer.from(await answer.arrayBuffer()).equals(await storedFile(id, link.position))).toBe(true);
    }
  });

  it('refuse a changed signature, another photo or enquiry under the same signature, and anything malformed', async () => {
    const id = await storedEnquiry(await phonePhotos(2));
    const token = tokenOf((await photoLinks(db, SITE, id, { now: SENT_AT }))[0]!.url);
    expect(await photoOfLink(db, token, SENT_AT, photosRoot)).toEqual({ path: expect.stringMatching(/1\.jpg$/), position: 1 });
    const [, position, expires, mac] = token.split('.');
    expect(position).toBe('1');

    const flipped = `${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`;
    await expectRefused(`${id}.1.${expires}.${flipped}`, SENT_AT);
    await expectRefused(`${id}.2.${expires}.${mac}`, SENT_AT);
    await expectRefused(`${id + 1}.1.${expires}.${mac}`, SENT_AT);
    await expectRefused(`${id}.1.${Number(expires) + 86_400}.${mac}`, SENT_AT);
    for (const malformed of [
      '',
      'nonsense',
      `${id}.1.${expires}`,
      `${id}.1.${expires}.${mac}x`,
      `0${id}.1.${expires}.${mac}`,
      `${token}/`,
    ]) {
      await expectRefused(malformed, SENT_AT);
    }
  });

  it('refuse a link once it has expired', async () => {
    const id = await storedEnquiry(await phonePhotos(1));
    const [link] = await photoLinks(db, SITE, id, { now: SENT_AT, ttlMs: 60_000 });
    expect(link!.expiresAt).toBe(new Date(SENT_AT + 60_000).toISOString());
    expect((await open(tokenOf(link!.url), SENT_AT + 59_000)).status).toBe(200);
    await expectRefused(tokenOf(link!.url), SENT_AT + 60_000);
    const [lasting] = await photoLinks(db, SITE, id, { now: SENT_AT });
    await expectRefused(tokenOf(lasting!.url), SENT_AT + PHOTO_LINK_TTL_MS + 1000);
  });

  it('refuse a link once the enquiry’s personal data is erased', async () => {
    const id = await storedEnquiry(await phonePhotos(1));
    const [link] = await photoLinks(db, SITE, id, { now: SENT_AT });
    expect((await open(tokenOf(link!.url), SENT_AT)).status).toBe(200);
    expect(await erasePersonalData(db, typedEnquiry.email, { photosRoot, outboxDir: path.join(photosRoot, 'outbox') })).toMatchObject({
      enquiries: 1,
      photos: 1,
    });
    await expectRefused(tokenOf(link!.url), SENT_AT);
    expect(await photoLinks(db, SITE, id, { now: SENT_AT })).toEqual([]);
  });

  it('answer 404 when the stored file itself is gone', async () => {
    const id = await storedEnquiry(await phonePhotos(1));
    const [link] = await photoLinks(db, SITE, id, { now: SENT_AT });
    const found = await photoOfLink(db, tokenOf(link!.url), SENT_AT, photosRoot);
    rmSync(found!.path);
    const answer = await open(tokenOf(link!.url), SENT_AT);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});
