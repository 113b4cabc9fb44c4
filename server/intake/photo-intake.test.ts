// The photo intake's own contract, whichever way in calls it: what is refused is refused before it is
// decoded or stored, each budget is charged or counted at its step, and delivery is woken only after a store.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { photoText } from '@/content/contact';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { reencodePhoto } from '@/server/intake/photo-processing';
import type { PhotoToStore } from '@/server/ledger/photo-store';
import {
  createPhotoIntake,
  type PhotoAnswers,
  type PhotoIntakeDeps,
  type PhotosDropped,
  type ReceivedPhoto,
} from '@/server/intake/photo-intake';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { multipartRequest } from '@/tests/support/multipart-request';
import { heicBytes, pdfBytes, phonePhoto } from '@/tests/support/photo-fixtures';

let db: Client;
let photosRoot: string;
let photo: Buffer;
beforeAll(async () => {
  photo = await phonePhoto(1, { width: 320, height: 240 });
}, 60_000);
// A migrated database (the storage's room is counted in it) and a photos folder, each test its own.
beforeEach(async () => {
  const database = await tempDatabase();
  db = database.db;
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-intake-'));
  return () => {
    database.cleanup();
    rmSync(photosRoot, { recursive: true, force: true });
  };
});

const client = '10.9.4.1';
const received = (name: string, bytes: Buffer, kept = true): ReceivedPhoto => ({
  name,
  bytes: bytes.length,
  head: bytes.subarray(0, 32),
  ...(kept ? { source: bytes } : {}),
});

type Answer = { said: 'refused'; message: string } | { said: 'too-many'; wait: number } | { said: 'no-room' } | { said: 'stored' };
const answers: PhotoAnswers<Answer> = {
  refused: (message) => ({ said: 'refused', message }),
  tooMany: (wait) => ({ said: 'too-many', wait }),
};

/** An intake whose re-encoder, wake-up and store are watched, with budgets of one accepted and one refused post. */
function watched(deps: PhotoIntakeDeps = {}) {
  const seen = { reencoded: [] as number[], woken: 0, stored: [] as { photos: PhotoToStore[]; sent: number; dropped: PhotosDropped }[] };
  const limiter = createRateLimiter({ limit: 1, windowMs: 60_000 });
  const refusedLimiter = createRateLimiter({ limit: 1, windowMs: 60_000 });
  const intake = createPhotoIntake({
    config: loadEnquiryConfig({}),
    limiter,
    refusedLimiter,
    db: async () => db,
    photosRoot,
    wake: () => (seen.woken += 1),
    reencode: (input, pixelBudget) => {
      seen.reencoded.push(pixelBudget ?? 0);
      return reencodePhoto(input, pixelBudget);
    },
    ...deps,
  });
  const store = async (photos: PhotoToStore[], { sent, dropped }: { sent: number; dropped: PhotosDropped }) => {
    seen.stored.push({ photos, sent, dropped });
    return { answer: { said: 'stored' } as Answer, wake: true };
  };
  const budgets = {
    accepted: () => limiter.peek(client).allowed,
    refused: () => refusedLimiter.peek(client).allowed,
  };
  return { intake, seen, store, budgets };
}

describe('the photo intake', () => {
  it('a file that is not a photo by its first bytes is refused, counted, and never decoded, charged or stored', async () => {
    for (const [name, bytes, message] of [
      ['scan.jpg', pdfBytes(), photoText.notAPhoto('scan.jpg')],
      ['IMG_1.heic', heicBytes(), photoText.heic('IMG_1.heic')],
    ] as const) {
      const { intake, seen, store, budgets } = watched();
      const answer = await intake.take({ client, photos: [received('ok.jpg', photo), received(name, bytes)], answers, store });
      expect(answer).toEqual({ said: 'refused', message });
      expect(seen.reencoded).toEqual([]);
      expect(seen.stored).toEqual([]);
      expect(seen.woken).toBe(0);
      expect(budgets.accepted()).toBe(true);
      expect(budgets.refused()).toBe(false);
    }
  });

  it('a photo that declares more pixels than its budget is refused from its header, never decoded', async () => {
    // 5000 × 5000 px, a PNG: past the 24 MP a photo held whole while it decodes may declare.
    const huge = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const { intake, seen, store, budgets } = watched();
    const answer = await intake.take({ client, photos: [received('huge.png', huge)], answers, store });
    expect(answer).toEqual({ said: 'refused', message: photoText.tooManyPixels('huge.png') });
    expect(seen.reencoded).toEqual([]);
    expect(seen.stored).toEqual([]);
    expect(budgets.accepted()).toBe(true);
    expect(budgets.refused()).toBe(false);
  });

  it('with no room in the storage, a way that answers it refuses before charging or storing; the other goes on keeping none', async () => {
    const refusing = watched();
    const full = { ...answers, noRoom: (): Answer => ({ said: 'no-room' }) };
    const refused = await refusing.intake.take({ client, photos: [received('a.jpg', photo, false)], answers: full, store: refusing.store });
    expect(refused).toEqual({ said: 'no-room' });
    expect(refusing.seen.stored).toEqual([]);
    expect(refusing.seen.reencoded).toEqual([]);
    expect(refusing.seen.woken).toBe(0);
    expect(refusing.budgets.accepted()).toBe(true);
    expect(refusing.budgets.refused()).toBe(false);

    const dropping = watched();
    const stored = await dropping.intake.take({ client, photos: [received('a.jpg', photo, false)], answers, store: dropping.store });
    expect(stored).toEqual({ said: 'stored' });
    expect(dropping.seen.stored).toEqual([{ photos: [], sent: 1, dropped: 'no-room' }]);
    expect(dropping.seen.reencoded).toEqual([]);
    expect(dropping.budgets.accepted()).toBe(false);
  });

  it('storage past its budget: the upload is read to nowhere, and a way that refuses it stores nothing', async () => {
    const { intake, seen, store } = watched({ config: loadEnquiryConfig({ ENQUIRY_PHOTOS_MAX_MB: '0' }) });
    expect(await intake.photosCanBeKept()).toBe(false);
    const { request } = await multipartRequest({}, [{ name: 'a.jpg', bytes: photo }]);
    const full = { ...answers, noRoom: (): Answer => ({ said: 'no-room' }) };
    const answer = await intake.readUpload(
      request,
      () => ({ said: 'refused', message: 'unread' }) as Answer,
      async ({ photos }) => {
        expect(photos.map(({ name, bytes, source }) => ({ name, bytes, source }))).toEqual([
          { name: 'a.jpg', bytes: photo.length, source: undefined },
        ]);
        return intake.take({ client, photos, answers: full, store });
      },
    );
    expect(answer).toEqual({ said: 'no-room' });
    expect(seen.stored).toEqual([]);
    expect(existsSync(intake.incomingDir()) ? readdirSync(intake.incomingDir()) : []).toEqual([]);
  });

  it('over the client’s budget of accepted posts: told when to try again, nothing decoded, not counted as refused', async () => {
    const { intake, seen, store, budgets } = watched();
    expect(await intake.take({ client, photos: [received('a.jpg', photo)], answers, store })).toEqual({ said: 'stored' });
    const again = await intake.take({ client, photos: [received('b.jpg', photo)], answers, store });
    expect(again).toMatchObject({ said: 'too-many', wait: expect.any(Number) });
    expect((again as { wait: number }).wait).toBeGreaterThan(0);
    expect(seen.reencoded).toHaveLength(1);
    expect(seen.stored).toHaveLength(1);
    expect(budgets.refused()).toBe(true);
    expect(intake.turnAway(client, (wait) => wait)).toBeGreaterThan(0);
  });

  it('either budget spent turns the client away before its body is read; neither, and it is let in without a charge', async () => {
    const { intake, budgets } = watched();
    expect(intake.turnAway(client, (wait) => wait)).toBeUndefined();
    expect(budgets.accepted()).toBe(true);
    intake.countRefused(client);
    expect(intake.turnAway(client, (wait) => ({ wait }))).toEqual({ wait: expect.any(Number) });
  });

  it('the caller’s judgement runs after the charge and before any decoding: it may stop, or keep none', async () => {
    const stopping = watched();
    const stopped = await stopping.intake.take({
      client,
      photos: [received('a.jpg', photo)],
      answers,
      assess: async () => ({ stop: { said: 'refused', message: 'captcha' } as Answer }),
      store: stopping.store,
    });
    expect(stopped).toEqual({ said: 'refused', message: 'captcha' });
    expect(stopping.seen.reencoded).toEqual([]);
    expect(stopping.seen.stored).toEqual([]);
    expect(stopping.budgets.accepted()).toBe(false);

    const unwanted = watched();
    await unwanted.intake.take({
      client,
      photos: [received('a.jpg', photo), received('b.jpg', photo)],
      answers,
      assess: async () => ({ go: 'spam', keepPhotos: false }),
      store: unwanted.store,
    });
    expect(unwanted.seen.reencoded).toEqual([]);
    expect(unwanted.seen.stored).toEqual([{ photos: [], sent: 2, dropped: 'unwanted' }]);
  });

  it('accepted photos are re-encoded in order under their own names, stored, and only then is delivery woken', async () => {
    const { intake, seen } = watched();
    let wokenWhenStored = -1;
    const answer = await intake.take<Answer, string>({
      client,
      photos: [received('first.jpg', photo), { name: 'empty', bytes: 0, head: new Uint8Array() }, received('second.jpg', photo)],
      answers,
      assess: async () => ({ go: 'accepted', keepPhotos: true }),
      store: async (photos, taken) => {
        wokenWhenStored = seen.woken;
        expect(taken).toEqual({ assessed: 'accepted', sent: 2, dropped: null });
        expect(photos.map(({ originalName, contentType }) => ({ originalName, contentType }))).toEqual([
          { originalName: 'first.jpg', contentType: 'image/jpeg' },
          { originalName: 'second.jpg', contentType: 'image/jpeg' },
        ]);
        return { answer: { said: 'stored' }, wake: true };
      },
    });
    expect(answer).toEqual({ said: 'stored' });
    expect(seen.reencoded).toHaveLength(2);
    expect(wokenWhenStored).toBe(0);
    expect(seen.woken).toBe(1);

    const notWoken = watched();
    await notWoken.intake.take({ client, photos: [], answers, store: async () => ({ answer: { said: 'stored' }, wake: false }) });
    expect(notWoken.seen.woken).toBe(0);
  });

  it('a photo its decoder cannot read is refused by name and counted, and nothing is stored', async () => {
    const { intake, seen, store, budgets } = watched();
    const cut = photo.subarray(0, Math.floor(photo.length / 2));
    const answer = await intake.take({ client, photos: [received('cut-off.jpg', cut)], answers, store });
    expect(answer).toEqual({ said: 'refused', message: photoText.unreadable('cut-off.jpg') });
    expect(seen.stored).toEqual([]);
    expect(seen.woken).toBe(0);
    expect(budgets.refused()).toBe(false);
  });

  it('an upload is read into the incoming folder while there is room, and cleared after, even when its receiver throws', async () => {
    const { intake } = watched();
    expect(await intake.photosCanBeKept()).toBe(true);
    const { request } = await multipartRequest({ subject: 'Leak' }, [{ name: 'a.jpg', bytes: photo }]);
    const failing = intake.readUpload(
      request,
      () => 'unread',
      async ({ fields, photos }) => {
        expect(fields).toEqual({ subject: 'Leak' });
        expect(typeof photos[0]?.source).toBe('string');
        expect(readdirSync(intake.incomingDir())).toHaveLength(1);
        throw new Error('store down');
      },
    );
    await expect(failing).rejects.toThrow('store down');
    expect(readdirSync(intake.incomingDir())).toEqual([]);

    const malformed = new Request('http://127.0.0.1/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'not multipart',
    });
    expect(
      await intake.readUpload(
        malformed,
        (refusal) => refusal.reason,
        async () => 'read',
      ),
    ).toBe('malformed');
  });
});
