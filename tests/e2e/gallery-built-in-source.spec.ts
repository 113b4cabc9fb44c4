// The site's own gallery endpoints (the built-in source), through the real production server and
// Next's routing, with the shipped samples. (The page itself talks to the fake CRM in this build.)
import { readFileSync, statSync } from 'node:fs';
import { expect, test } from './support/test';
import { mediaUrl } from '@/lib/gallery/media-url';

type Listed = { _id: string; title: string; mimeType: string; imageUrl?: string; s3Key?: string; filename?: string };

test('lists the samples and serves every one of them at the URL the page would build', async ({ request }) => {
  const response = await request.get('/api/gallery/public');
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: Listed[] };
  expect(data.length).toBeGreaterThanOrEqual(8);
  for (const item of data) {
    const url = mediaUrl(item, '');
    if (!url) continue;
    const media = await request.get(url);
    expect(media.status(), url).toBe(200);
    expect(media.headers()['content-type'], url).toBe(item.mimeType);
  }
});

test('serves a video byte range with 206 and refuses a range past the end with 416', async ({ request }) => {
  const file = readFileSync('media/gallery/samples/roof-timelapse-sample.mp4');
  const url = mediaUrl({ s3Key: 'samples/roof-timelapse-sample.mp4' }, '') ?? '';
  const part = await request.get(url, { headers: { Range: 'bytes=0-99' } });
  expect(part.status()).toBe(206);
  expect(part.headers()['content-range']).toBe(`bytes 0-99/${file.length}`);
  expect(Buffer.compare(await part.body(), file.subarray(0, 100))).toBe(0);
  const past = await request.get(url, { headers: { Range: `bytes=${statSync('media/gallery/samples/roof-timelapse-sample.mp4').size}-` } });
  expect(past.status()).toBe(416);
});

test('refuses traversal attempts with 4xx', async ({ request }) => {
  for (const path of [
    '/api/gallery/image/..%2F..%2Fpackage.json',
    '/api/gallery/image/%2e%2e/%2e%2e/package.json',
    '/api/gallery/image/samples%2F..%2F..%2F..%2Fpackage.json',
    '/api/gallery/image/.env',
    '/api/gallery/image/manifest.json',
    '/api/gallery/image/samples/..%5C..%5Cpackage.json',
  ]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBeGreaterThanOrEqual(400);
    expect(response.status(), path).toBeLessThan(500);
    expect(await response.text(), path).not.toContain('"dependencies"');
  }
});
