// Photos sent ahead of a kept claim, against a real folder: each client's share of the space is one
// claim's worth, so one client filling it leaves room for every other phone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES, PHOTO_MAX_COUNT, STAGED_PHOTOS } from '@/lib/enquiry-rules.mjs';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { createStagedPhotos } from '@/server/intake/staged-photos';

let root: string;
let clock: number;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'staged-photos-'));
  clock = Date.parse('2026-11-28T10:00:00Z');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

let made = 0;
/** A photo's upload in the incoming folder; `bytes` is what the upload counted (the file itself is small). */
function upload(bytes = PHOTO_MAX_BYTES) {
  made += 1;
  const file = path.join(root, `upload-${made}`);
  writeFileSync(file, `photo ${made}`);
  return { name: `IMG_${made}.jpg`, path: file, bytes };
}

describe('photos sent ahead of a kept claim', () => {
  it('take at most one claim’s worth from a client at once; past it the phone is told to send its claim whole', async () => {
    const staged = createStagedPhotos({ folder: () => path.join(root, 'staged'), now: () => clock });
    expect(STAGED_PHOTOS.perClientBytes).toBe(PHOTO_MAX_COUNT * PHOTO_MAX_BYTES);
    const first = newEnquiryKey();
    for (let index = 0; index < PHOTO_MAX_COUNT; index += 1)
      expect((await staged.stage(first, upload(), '203.0.113.7')).kind, `photo ${index + 1}`).toBe('staged');
    // The same client's next claim finds its share full.
    expect(await staged.stage(newEnquiryKey(), upload(), '203.0.113.7')).toEqual({ kind: 'no-room' });
    // Another phone's claim still has room.
    expect((await staged.stage(newEnquiryKey(), upload(), '198.51.100.4')).kind).toBe('staged');
    // Taken by its claim, the first claim's photos free the client's share.
    await staged.discard(first);
    expect((await staged.stage(newEnquiryKey(), upload(), '203.0.113.7')).kind).toBe('staged');
  });

  it('free a client’s share once its photos expire', async () => {
    const staged = createStagedPhotos({ folder: () => path.join(root, 'staged'), now: () => clock });
    for (let index = 0; index < PHOTO_MAX_COUNT; index += 1) await staged.stage(newEnquiryKey(), upload(), '203.0.113.7');
    expect(await staged.stage(newEnquiryKey(), upload(), '203.0.113.7')).toEqual({ kind: 'no-room' });
    clock += STAGED_PHOTOS.lifetimeMs + 1;
    expect((await staged.stage(newEnquiryKey(), upload(), '203.0.113.7')).kind).toBe('staged');
  });

  it('bound everyone’s together too: past the site’s space, no one stages and every phone sends whole', async () => {
    const staged = createStagedPhotos({ folder: () => path.join(root, 'staged'), now: () => clock });
    const clients = Math.ceil(STAGED_PHOTOS.maxBytes / STAGED_PHOTOS.perClientBytes);
    for (let client = 0; client < clients; client += 1)
      for (let index = 0; index < PHOTO_MAX_COUNT; index += 1) await staged.stage(newEnquiryKey(), upload(), `client-${client}`);
    expect(await staged.stage(newEnquiryKey(), upload(), 'a-new-phone')).toEqual({ kind: 'no-room' });
  });
});
