import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_IMAGE_WIDTHS } from '@/lib/gallery/image-widths';
import { storedWidthFor, storedWidthsFor } from '@/lib/gallery/responsive-image';
import { exifOf, phonePhoto } from '@/scripts/support/gallery-phone-photo';
import { galleryMediaResponse } from './http';
import { createGalleryStore, displaySizeKey, GalleryInputError, toPublicItem, type GalleryStore } from './store';

// `npm run gallery add` with a photo straight from a phone: it keeps the original and stores the
// display sizes, re-encoded without EXIF, so serving never resizes and never sends the GPS position.

let work: string;
let store: GalleryStore;
let photoFile: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'gallery-sizes-'));
  store = createGalleryStore({ samplesDir: 'media/gallery', dataDir: path.join(work, 'data') });
  photoFile = path.join(work, 'IMG_0042.JPG');
  writeFileSync(photoFile, await phonePhoto());
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('stored widths', () => {
  it('stores every gallery width below the original and the next one up at the original’s own width', () => {
    expect(storedWidthsFor(4032)).toEqual([...GALLERY_IMAGE_WIDTHS]);
    expect(storedWidthsFor(1200)).toEqual([256, 384, 640, 828, 1080, 1280]);
    expect(storedWidthsFor(640)).toEqual([256, 384, 640]);
    expect(storedWidthsFor(100)).toEqual([256]);
  });

  it('answers a request with the narrowest stored width at least as wide, else the widest', () => {
    expect(storedWidthFor([256, 384, 640], 300)).toBe(384);
    expect(storedWidthFor([256, 384, 640], 2048)).toBe(640);
    expect(storedWidthFor([256, 384, 640])).toBe(640);
    expect(storedWidthFor([], 640)).toBeUndefined();
  });
});

// Decoding a 12-megapixel photo and encoding 16 files takes seconds on a busy 2-CPU machine.
describe('adding a phone photo', { timeout: 60_000 }, () => {
  it('keeps the original, writes each display size as WebP no wider than its width, none with EXIF', async () => {
    const original = await exifOf(readFileSync(photoFile));
    expect(original).toEqual({ exif: true, gps: true });
    const item = await store.addItem({ file: photoFile, title: 'Ceiling after the leak', category: 'Water Damage' });
    expect(item.displayWidths).toEqual([...GALLERY_IMAGE_WIDTHS]);
    // The contract keeps the original's type; the browser gets WebP when it says it takes it.
    expect(item.mimeType).toBe('image/jpeg');
    const mediaDir = path.join(work, 'data', 'media');
    expect(statSync(path.join(mediaDir, item.s3Key!)).size).toBe(statSync(photoFile).size);
    for (const width of item.displayWidths!) {
      for (const [format, expected] of [
        ['webp', 'webp'],
        ['fallback', 'jpeg'],
      ] as const) {
        const stored = readFileSync(path.join(mediaDir, displaySizeKey(item.s3Key!, width, format)));
        const metadata = await sharp(stored).metadata();
        expect(metadata.format).toBe(expected);
        expect(metadata.width).toBe(width);
        expect(await exifOf(stored)).toEqual({ exif: false, gps: false });
      }
    }
    // The contract the browser sees carries no bookkeeping.
    expect(toPublicItem(item)).not.toHaveProperty('displayWidths');
  });

  it('serves the stored size for ?w=, the widest without it, never the original, and refuses other widths', async () => {
    const item = (await store.listPublic()).find((listed) => listed.title === 'Ceiling after the leak')!;
    const url = (query: string) => `http://site.test/api/gallery/image/${encodeURIComponent(item.s3Key!)}${query}`;
    const webp = { headers: { Accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' } };
    const small = await galleryMediaResponse(new Request(url('?w=384'), webp), item.s3Key!, store);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/webp');
    const smallBytes = Buffer.from(await small.arrayBuffer());
    expect((await sharp(smallBytes).metadata()).width).toBe(384);
    expect(smallBytes.length).toBeLessThan(60_000);

    expect(small.headers.get('vary')).toBe('Accept');
    const plain = await galleryMediaResponse(new Request(url('')), item.s3Key!, store);
    expect(plain.headers.get('content-type')).toBe('image/jpeg');
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    expect(await sharp(plainBytes).metadata()).toMatchObject({ format: 'jpeg', width: 2048 });
    expect(await exifOf(plainBytes)).toEqual({ exif: false, gps: false });

    for (const bad of ['?w=500', '?w=0', '?w=-256', '?w=256.0', '?w=abc', '?w=99999']) {
      expect((await galleryMediaResponse(new Request(url(bad)), item.s3Key!, store)).status, bad).toBe(400);
    }
  });

  it('removes the sizes with the item', async () => {
    const item = (await store.listPublic()).find((listed) => listed.title === 'Ceiling after the leak')!;
    const stored = (await store.all()).find((candidate) => candidate._id === item._id)!;
    expect(await store.removeItem(item._id)).toBe('removed');
    for (const width of stored.displayWidths!) {
      for (const format of ['webp', 'fallback'] as const) {
        expect(() => statSync(path.join(work, 'data', 'media', displaySizeKey(item.s3Key!, width, format)))).toThrow();
      }
    }
  });

  it('refuses a photo that does not decode (a truncated JPEG), naming the file', async () => {
    const truncated = path.join(work, 'cut-short.jpg');
    writeFileSync(truncated, readFileSync(photoFile).subarray(0, 200_000));
    await expect(store.addItem({ file: truncated, title: 'Cut', category: 'Water Damage' })).rejects.toThrow(GalleryInputError);
    await expect(store.addItem({ file: truncated, title: 'Cut', category: 'Water Damage' })).rejects.toThrow(
      /cut-short\.jpg could not be read as an image/,
    );
  });
});

describe('adding a video with a still frame', { timeout: 60_000 }, () => {
  it('stores the phone photo given as --poster at its display sizes without EXIF, lists it as posterUrl and removes it with the video', async () => {
    const video = path.join(work, 'leak-survey.mp4');
    writeFileSync(video, readFileSync('media/gallery/samples/roof-timelapse-sample.mp4'));
    const item = await store.addItem({ file: video, title: 'Survey video', category: 'Water Damage', poster: photoFile });
    expect(item.posterKey).toMatch(/^uploads\/leak-survey-[0-9a-f]{10}\.poster\.jpg$/);
    expect(item.posterWidths).toEqual([...GALLERY_IMAGE_WIDTHS]);
    const listed = toPublicItem(item);
    expect(listed).toMatchObject({ mimeType: 'video/mp4', posterUrl: `/api/gallery/image/${encodeURIComponent(item.posterKey!)}` });
    expect(listed).not.toHaveProperty('posterKey');

    const poster = await galleryMediaResponse(
      new Request(`http://site.test/api/gallery/image/${encodeURIComponent(item.posterKey!)}?w=640`, { headers: { Accept: 'image/webp' } }),
      item.posterKey!,
      store,
    );
    expect(poster.status).toBe(200);
    const posterBytes = Buffer.from(await poster.arrayBuffer());
    expect(await sharp(posterBytes).metadata()).toMatchObject({ format: 'webp', width: 640 });
    expect(await exifOf(posterBytes)).toEqual({ exif: false, gps: false });

    expect(await store.removeItem(item._id)).toBe('removed');
    expect(() => statSync(path.join(work, 'data', 'media', displaySizeKey(item.posterKey!, 640, 'webp')))).toThrow();
    expect((await galleryMediaResponse(new Request('http://site.test/x'), item.posterKey!, store)).status).toBe(404);
  });

  it('refuses a poster for a photo, and a poster that does not decode', async () => {
    await expect(store.addItem({ file: photoFile, title: 'Photo', category: 'Water Damage', poster: photoFile })).rejects.toThrow(
      '--poster is for videos only',
    );
    const video = path.join(work, 'second.mp4');
    writeFileSync(video, readFileSync('media/gallery/samples/roof-timelapse-sample.mp4'));
    const notAnImage = path.join(work, 'frame.jpg');
    writeFileSync(notAnImage, '%PDF-1.7 not a picture');
    await expect(store.addItem({ file: video, title: 'Video', category: 'Water Damage', poster: notAnImage })).rejects.toThrow(
      /frame\.jpg could not be read as an image/,
    );
    expect((await store.all()).some((candidate) => candidate.title === 'Video')).toBe(false);
  });
});
