// The minimum transfer rate as readMultipartEnquiry applies it, with the real rate and short windows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMultipartEnquiry } from '@/server/enquiries/multipart-enquiry';

let incomingDir: string;
beforeEach(() => {
  incomingDir = mkdtempSync(path.join(tmpdir(), 'homecare-rate-'));
});
afterEach(() => rmSync(incomingDir, { recursive: true, force: true }));

/** A multipart body with one photo of `photoBytes`, sent at `bytesPerSecond` in 100 ms steps. */
async function paced(photoBytes: number, bytesPerSecond: number) {
  const form = new FormData();
  form.append('name', 'Jo Bloggs');
  form.append('photos', new Blob([new Uint8Array(photoBytes).fill(0xff)], { type: 'image/jpeg' }), 'IMG_0001.jpg');
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const step = Math.ceil(bytesPerSecond / 10);
  let offset = 0;
  const started = Date.now();
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (offset >= body.length) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(body.subarray(offset, offset + step));
        offset += step;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://127.0.0.1/api/contact', {
    method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { request, elapsed: () => Date.now() - started };
}

describe('the minimum transfer rate of an upload', () => {
  it('a steady body at 20 KB/s, just above the 16 KB/s minimum, arrives whole however many windows it takes', async () => {
    const { request, elapsed } = await paced(60_000, 20_000);
    const read = await readMultipartEnquiry(request, { incomingDir, minBytesPerSecond: 16_000, rateWindowMs: 1_000 });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.files).toMatchObject([{ name: 'IMG_0001.jpg', bytes: 60_000 }]);
    expect(read.value.fields).toEqual({ name: 'Jo Bloggs' });
    // Three windows: every one after the first checked, none cut it off.
    expect(elapsed()).toBeGreaterThan(2_900);
    await read.value.cleanup();
  }, 15_000);

  it('a body trickled at 8 KB/s is cut off after the first window of grace and one more (408)', async () => {
    const { request, elapsed } = await paced(200_000, 8_000);
    const read = await readMultipartEnquiry(request, { incomingDir, minBytesPerSecond: 16_000, rateWindowMs: 500 });
    expect(read).toEqual({ ok: false, refusal: { status: 408, reason: 'too-slow' } });
    expect(elapsed()).toBeLessThan(1_500);
  });

  it('reads the rate at every window: an upload in a fast slot moved to a minimum-rate one goes on', async () => {
    let rate = 64_000;
    setTimeout(() => (rate = 16_000), 500);
    const { request } = await paced(50_000, 20_000);
    const read = await readMultipartEnquiry(request, { incomingDir, minBytesPerSecond: () => rate, rateWindowMs: 1_000 });
    expect(read.ok).toBe(true);
    if (read.ok) await read.value.cleanup();
  }, 15_000);

  it('held to the fast rate, the same body is cut off', async () => {
    const { request } = await paced(50_000, 20_000);
    const read = await readMultipartEnquiry(request, { incomingDir, minBytesPerSecond: () => 64_000, rateWindowMs: 1_000 });
    expect(read).toEqual({ ok: false, refusal: { status: 408, reason: 'too-slow' } });
  });
});
