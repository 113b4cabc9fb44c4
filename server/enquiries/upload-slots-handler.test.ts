// The contact handler's use of the upload slots: outcomes that are strikes, and slots freed for others.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTACT_RESPONSES } from '@/content/contact';
import { loadEnquiryConfig } from '@/server/enquiries/config';
import { createContactHandler } from '@/server/enquiries/contact-handler';
import { createUploadSlots, UPLOAD_SLOTS } from '@/server/enquiries/upload-slots.mjs';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { multipartRequest } from '@/tests/support/multipart-request';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Ceiling down', message: 'The kitchen ceiling came down.' };
let db: Client;
let cleanup: () => void;
let photosRoot: string;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-slots-'));
});
afterEach(() => {
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});

describe('the contact handler and its upload slots', () => {
  it('an upload cut off for slowness frees its slot at once and is a strike; the client then waits, others do not', async () => {
    const slots = createUploadSlots({ limits: { ...UPLOAD_SLOTS, total: 1, atMinimumRate: 1, strikesAllowed: 1 } });
    const handle = createContactHandler({
      config: loadEnquiryConfig({}),
      db: async () => db,
      wake: () => undefined,
      photosRoot,
      uploadSlots: slots,
      uploadRate: { minBytesPerSecond: 100_000, windowMs: 200 },
    });
    const photo = { name: 'a.jpg', bytes: Buffer.alloc(200_000, 0xff) };
    const slow = (await multipartRequest(valid, [photo], { address: '192.0.2.60', chunkDelayMs: 100, chunkBytes: 1000 })).request;
    expect((await handle(slow)).status).toBe(408);
    expect(slots.state()).toEqual({ held: 0, atMinimumRate: 0, clientsWithStrikes: 1 });
    const again = await handle((await multipartRequest(valid, [photo], { address: '192.0.2.60' })).request);
    expect(again).toMatchObject({ status: 429, body: { message: CONTACT_RESPONSES.tooMany, reason: 'rate-limited' } });
    expect(Number(again.headers?.['Retry-After'])).toBeGreaterThan(3000);
    // Another visitor has the slot: its enquiry gets past the slot (refused later only for its fake photo).
    const other = await handle((await multipartRequest(valid, [photo], { address: '192.0.2.61' })).request);
    expect(other.status).toBe(422);
  });

  it('a client that goes away mid-body frees its slot and gets a strike; a refused body does not', async () => {
    const slots = createUploadSlots({ limits: { ...UPLOAD_SLOTS, total: 1, atMinimumRate: 1 } });
    const handle = createContactHandler({
      config: loadEnquiryConfig({}),
      db: async () => db,
      wake: () => undefined,
      photosRoot,
      uploadSlots: slots,
    });
    const going = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (going.signal.aborted) return controller.error(new Error('aborted'));
          sent += 1;
          controller.enqueue(
            new TextEncoder().encode(sent === 1 ? '------x\r\nContent-Disposition: form-data; name="name"\r\n\r\nJo' : 'o'),
          );
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request('http://127.0.0.1/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=----x', 'x-homecare-client-address': '192.0.2.62' },
      body,
      duplex: 'half',
      signal: going.signal,
    } as RequestInit);
    const answered = handle(request);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Every slot taken: busy, which the form tries again by itself after Retry-After.
    expect(await handle((await multipartRequest(valid, [], { address: '192.0.2.63' })).request)).toMatchObject({
      status: 503,
      body: { reason: 'busy' },
      headers: { 'Retry-After': expect.any(String) },
    });
    going.abort();
    expect((await answered).status).toBe(400);
    expect(slots.state()).toEqual({ held: 0, atMinimumRate: 0, clientsWithStrikes: 1 });
    // A malformed body from another client is refused, and is no strike.
    const malformed = new Request('http://127.0.0.1/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=----x', 'x-homecare-client-address': '192.0.2.64' },
      body: 'not multipart at all',
    });
    expect((await handle(malformed)).status).toBe(400);
    expect(slots.state().clientsWithStrikes).toBe(1);
  });
});
