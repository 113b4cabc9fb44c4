// Integration tests of the built-in gallery source: the real route handlers over the shipped samples
// and a temporary GALLERY_DIR filled the way `npm run gallery -- add` fills it.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { normaliseGalleryResponse } from '@/lib/gallery/normalise';

const galleryDir = mkdtempSync(path.join(tmpdir(), 'gallery-routes-'));
let listRoute: typeof import('@/app/api/gallery/public/route');
let mediaRoute: typeof import('@/app/api/gallery/image/[...key]/route');
let addedKey = '';

const videoKey = 'samples/roof-timelapse-sample.mp4';
const videoFile = path.join('media/gallery', videoKey);

function getMedia(key: string, headers: Record<string, string> = {}) {
  const url = `http://site.test/api/gallery/image/${key}`;
  return mediaRoute.GET(new Request(url, { headers }), { params: Promise.resolve({ key: key.split('/') }) });
}

beforeAll(async () => {
  vi.stubEnv('GALLERY_DIR', galleryDir);
  vi.resetModules();
  listRoute = await import('@/app/api/gallery/public/route');
  mediaRoute = await import('@/app/api/gallery/image/[...key]/route');
  const { defaultGalleryStore } = await import('./store');
  const added = await defaultGalleryStore(galleryDir).addItem({
    file: 'media/gallery/samples/slate-roof-sample.jpg',
    title: 'Added roof',
    category: 'Roofing',
    tags: ['added'],
  });
  addedKey = added.s3Key ?? '';
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(galleryDir, { recursive: true, force: true });
});

describe('GET /api/gallery/public', () => {
  it('answers the CRM contract: { data: [...] } of gallery items, cacheable and readable cross-origin', async () => {
    const response = await listRoute.GET(new Request('http://site.test/api/gallery/public'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { success: boolean; data: Record<string, unknown>[] };
    expect(body.success).toBe(true);
    for (const item of body.data) {
      expect(item).toEqual(
        expect.objectContaining({
          _id: expect.any(String),
          title: expect.any(String),
          category: expect.any(String),
          description: expect.any(String),
          tags: expect.any(Array),
          mimeType: expect.any(String),
        }),
      );
      expect(item).not.toHaveProperty('createdAt');
    }
    // Added items come first; every sample survives the browser's normalisation.
    expect(body.data[0]).toMatchObject({ title: 'Added roof', category: 'Roofing', s3Key: addedKey, mimeType: 'image/jpeg' });
    expect(normaliseGalleryResponse(body)?.items).toHaveLength(body.data.length);
  });

  it('ships samples that exercise every display path', async () => {
    type Listed = { _id: string; category: string; mimeType: string; imageUrl?: string; s3Key?: string; filename?: string };
    const body = (await (await listRoute.GET(new Request('http://site.test/api/gallery/public'))).json()) as { data: Listed[] };
    const samples = body.data.filter((item) => item._id.startsWith('sample-'));
    expect(samples.length).toBeGreaterThanOrEqual(8);
    expect(new Set(samples.map((item) => item.category)).size).toBeGreaterThanOrEqual(3);
    expect(samples.some((item) => item.mimeType.startsWith('video/') && item.s3Key)).toBe(true);
    expect(samples.some((item) => item.imageUrl)).toBe(true);
    expect(samples.some((item) => item.s3Key && item.mimeType.startsWith('image/'))).toBe(true);
    expect(samples.some((item) => !item.imageUrl && !item.s3Key && item.filename)).toBe(true);
    for (const item of samples) {
      if (item.imageUrl) expect(statSync(path.join('public', item.imageUrl)).isFile()).toBe(true);
      expect(item.filename ?? item.imageUrl ?? item.s3Key).toContain('sample');
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await listRoute.GET(new Request('http://site.test/api/gallery/public'));
    const etag = first.headers.get('etag') ?? '';
    const again = await listRoute.GET(new Request('http://site.test/api/gallery/public', { headers: { 'If-None-Match': etag } }));
    expect(again.status).toBe(304);
  });
});

describe('GET /api/gallery/image/{s3Key}', () => {
  it('serves a sample image with its type and cache headers', async () => {
    const response = await getMedia('samples/hallway-floor-sample.webp');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toContain('max-age=86400');
    expect(response.headers.get('etag')).toBeTruthy();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes).equals(readFileSync('media/gallery/samples/hallway-floor-sample.webp'))).toBe(true);
  });

  it('serves an added item from GALLERY_DIR', async () => {
    const response = await getMedia(addedKey);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
  });

  it('serves the whole video with Accept-Ranges, and a byte range as 206', async () => {
    const file = readFileSync(videoFile);
    const whole = await getMedia(videoKey);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(file.length));

    const part = await getMedia(videoKey, { Range: 'bytes=100-1123' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${file.length}`);
    expect(part.headers.get('content-length')).toBe('1024');
    expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(100, 1124))).toBe(true);

    const tail = await getMedia(videoKey, { Range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(file.subarray(file.length - 10))).toBe(true);
  });

  it('answers 416 with the size to a range past the end', async () => {
    const size = statSync(videoFile).size;
    const response = await getMedia(videoKey, { Range: `bytes=${size}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await getMedia(videoKey)).headers.get('etag') ?? '';
    expect((await getMedia(videoKey, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('refuses traversal and invalid keys with 400, unknown keys with 404', async () => {
    for (const key of [
      '../package.json',
      'samples/../../package.json',
      '..%2Fpackage.json',
      '.env',
      'samples/.hidden.webp',
      '/etc/passwd',
    ]) {
      const response = await mediaRoute.GET(new Request('http://site.test/x'), { params: Promise.resolve({ key: key.split('/') }) });
      expect(response.status, key).toBe(400);
      expect(await response.json()).toEqual({ success: false, message: 'Invalid media key' });
    }
    for (const key of ['samples/nothing-sample.webp', 'manifest.json', 'package.json', 'samples']) {
      expect((await getMedia(key)).status, key).toBe(404);
    }
  });
});
