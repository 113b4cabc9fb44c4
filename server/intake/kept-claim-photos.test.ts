import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { enquiryReference } from '@/lib/enquiry-reference';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE, STAGE_PHOTO_FIELD, STAGED_PHOTOS_FIELD } from '@/lib/offline/protocol';
import { PHOTO_MAX_BYTES, PHOTO_MAX_COUNT, STAGED_PHOTOS } from '@/lib/enquiry-rules.mjs';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { contactRequest, tempDatabase } from '@/tests/support/enquiry-peers';
import { multipartRequest } from '@/tests/support/multipart-request';
import { pdfBytes, phonePhoto } from '@/tests/support/photo-fixtures';

// A claim a phone kept with no signal: its service worker sends each photo ahead, one request each, then
// the claim naming them; the company gets one enquiry with every photo, as if they came in its body.
const claim = {
  name: 'Zbigniew Łukasiewicz',
  email: 'zbyszek@example.com',
  phone: '',
  subject: 'Flooded kitchen',
  message: 'Water through the ceiling.',
};

let db: Client;
let cleanup: () => void;
let photosRoot: string;
let photos: Buffer[];
let clock = Date.UTC(2026, 10, 28, 9);

beforeAll(async () => {
  photos = [await phonePhoto(11, { width: 2048, height: 1536 }), await phonePhoto(12, { width: 2048, height: 1536 })];
}, 60_000);
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-staged-'));
  clock = Date.UTC(2026, 10, 28, 9);
});
afterEach(() => {
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});

function handler() {
  return createContactHandler(
    { config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined, photosRoot, now: () => clock },
    { now: () => clock },
  );
}

const kept = (request: Request) => {
  request.headers.set(KEPT_CLAIM_HEADER, KEPT_CLAIM_HEADER_VALUE);
  return request;
};

async function sendAhead(send: ReturnType<typeof handler>, key: string, bytes: Buffer, name = 'IMG_2041.jpg', address?: string) {
  const { request } = await multipartRequest({ [STAGE_PHOTO_FIELD]: key }, [{ name, bytes }], { address });
  return send(kept(request));
}

const staged = () =>
  readdirSync(path.join(photosRoot, '.incoming', 'staged'), { recursive: true }).filter(
    (name) => !String(name).includes('.json') && String(name).includes('/'),
  );
const count = async (sql: string) => Number((await db.execute(sql)).rows[0]?.n);

describe('photos sent ahead of a kept claim', () => {
  it('two photos, one request each, then the claim naming them: one enquiry with both photos and one notification', async () => {
    const send = handler();
    const key = newEnquiryKey();
    const first = await sendAhead(send, key, photos[0]!);
    const again = await sendAhead(send, key, photos[0]!);
    const second = await sendAhead(send, key, photos[1]!, 'IMG_2042.jpg');
    expect(first.status).toBe(201);
    const ids = [first, second].map((result) => (result.body as { staged: string }).staged);
    // The same photo sent twice (its answer lost) is kept once.
    expect((again.body as { staged: string }).staged).toBe(ids[0]);
    expect(staged()).toHaveLength(2);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);

    const result = await send(kept(contactRequest({ ...claim, enquiryKey: key, [STAGED_PHOTOS_FIELD]: ids.join(',') })));
    expect(result).toEqual({
      status: 201,
      body: { success: true, message: 'Your message has been sent successfully!', reference: enquiryReference(1) },
    });
    expect(await count('SELECT count(*) AS n FROM enquiry_photos')).toBe(2);
    expect((await db.execute('SELECT original_name FROM enquiry_photos ORDER BY position')).rows.map((row) => row.original_name)).toEqual([
      'IMG_2041.jpg',
      'IMG_2042.jpg',
    ]);
    expect(await count("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).toBe(1);
    expect(staged()).toHaveLength(0);

    // Its answer lost on the way back, the claim comes again: the photos it names are gone, but the
    // enquiry with its key is found, and answered with the same reference; nothing is stored twice.
    const retried = await send(kept(contactRequest({ ...claim, enquiryKey: key, [STAGED_PHOTOS_FIELD]: ids.join(',') })));
    expect(retried).toEqual(result);
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM enquiry_photos')).toBe(2);
    expect(await count('SELECT count(*) AS n FROM enquiry_notifications')).toBe(2);
  });

  it('a claim naming photos the site no longer has (expired, or a restart) is asked to send them again, and nothing is stored', async () => {
    const send = handler();
    const key = newEnquiryKey();
    const id = ((await sendAhead(send, key, photos[0]!)).body as { staged: string }).staged;
    clock += STAGED_PHOTOS.lifetimeMs + 1;
    const result = await send(kept(contactRequest({ ...claim, enquiryKey: key, [STAGED_PHOTOS_FIELD]: id })));
    expect(result).toEqual({
      status: 409,
      body: {
        success: false,
        message: 'The photos sent ahead of this claim are no longer here. Please send them again with it.',
        reason: 'photos-missing',
      },
    });
    expect(await count('SELECT count(*) AS n FROM enquiries')).toBe(0);
  });

  it('bounded: at most a claim’s photos per key, only photos, only one per request, only from the kept-claim worker', async () => {
    const send = handler();
    const key = newEnquiryKey();
    for (let index = 0; index < PHOTO_MAX_COUNT; index++) {
      expect((await sendAhead(send, key, await phonePhoto(20 + index, { width: 640, height: 480 }))).status).toBe(201);
    }
    const tooMany = await sendAhead(send, key, await phonePhoto(40, { width: 640, height: 480 }));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toMatchObject({ reason: 'too-large' });

    const notAPhoto = await sendAhead(send, newEnquiryKey(), pdfBytes(), 'claim.jpg');
    expect(notAPhoto.status).toBe(422);
    expect(notAPhoto.body).toMatchObject({ reason: 'invalid' });

    const { request: two } = await multipartRequest({ [STAGE_PHOTO_FIELD]: newEnquiryKey() }, [
      { name: 'a.jpg', bytes: photos[0]! },
      { name: 'b.jpg', bytes: photos[1]! },
    ]);
    expect((await send(kept(two))).body).toMatchObject({
      reason: 'malformed',
      message: 'A photo sent ahead of its claim must come alone, with the claim’s key.',
    });

    // Without the header it is an enquiry like any other: one with no name, no e-mail and no message.
    const { request: plain } = await multipartRequest({ [STAGE_PHOTO_FIELD]: newEnquiryKey() }, [{ name: 'a.jpg', bytes: photos[0]! }]);
    expect((await send(plain)).status).toBe(422);
    expect(staged()).toHaveLength(PHOTO_MAX_COUNT);
  });

  it('one phone fills its share of the space: its next photo is answered "send it whole" (507), and another phone’s still stages', async () => {
    const send = handler();
    // A phone photo padded past its end to the largest a photo may be: read by its header like any.
    const largest = (seed: number) => {
      const padded = Buffer.concat([photos[0]!, Buffer.alloc(PHOTO_MAX_BYTES - photos[0]!.length - 4096)]);
      padded.writeUInt32BE(seed, padded.length - 4);
      return padded;
    };
    const phone = '203.0.113.7';
    for (let index = 0; index < STAGED_PHOTOS.perClientBytes / PHOTO_MAX_BYTES; index++)
      expect((await sendAhead(send, newEnquiryKey(), largest(index), `IMG_${index}.jpg`, phone)).status, `photo ${index + 1}`).toBe(201);
    const full = await sendAhead(send, newEnquiryKey(), largest(99), 'IMG_99.jpg', phone);
    expect(full.status).toBe(507);
    expect(full.body).toMatchObject({ success: false, reason: 'send-whole' });
    // The same phone's claim sent whole, its photo in its own body: stored as any claim is.
    const { request: whole } = await multipartRequest(
      { ...claim, enquiryKey: newEnquiryKey() },
      [{ name: 'IMG_99.jpg', bytes: photos[1]! }],
      {
        address: phone,
      },
    );
    expect((await send(kept(whole))).status).toBe(201);
    // Another phone is not held up by the first.
    expect((await sendAhead(send, newEnquiryKey(), largest(100), 'IMG_100.jpg', '198.51.100.4')).status).toBe(201);
  }, 60_000);
});
