// After a power cut, a committed enquiry never points at a photo that is empty or missing: every
// photo file, its folder and the photos' root are flushed to the disk before the row is committed.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Client } from '@libsql/client';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { newEnquiry, photoToStore } from '@/tests/support/stored-enquiry';

// What reached the disk, in order: `sync <path>` for each flushed file or folder, `commit` for each write batch.
const events = vi.hoisted(() => [] as string[]);

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof actual.open = async (...args) => {
    const handle = await actual.open(...args);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      await sync();
      events.push(`sync ${String(args[0])}`);
    };
    return handle;
  };
  return { ...actual, open, default: { ...actual, open } };
});

let db: Client;
let cleanup: () => void;
let photosRoot: string;

beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-durable-'));
  const batch = db.batch.bind(db);
  db.batch = (async (...args: Parameters<Client['batch']>) => {
    events.push('commit');
    return batch(...args);
  }) as Client['batch'];
  events.length = 0;
});
afterEach(() => {
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});

const photo = (bytes: number) => photoToStore(Buffer.alloc(bytes, 7), 'IMG_0001.jpg');

it('flushes each photo file, then their folder and the photos folder, before the enquiry is committed', async () => {
  const enquiry = newEnquiry({ subject: 'Roof', message: 'Slates off after the storm.', photos: [photo(1000), photo(2000)] });
  const result = await storeEnquiry(db, enquiry, Date.now(), { photosRoot });
  expect(result.duplicate).toBe(false);
  const [folder] = readdirSync(photosRoot);
  const folderPath = path.join(photosRoot, folder!);
  const commit = events.indexOf('commit');
  expect(commit).toBeGreaterThan(0);
  const flushed = events.slice(0, commit);
  expect(flushed).toEqual(expect.arrayContaining([`sync ${path.join(folderPath, '1.jpg')}`, `sync ${path.join(folderPath, '2.jpg')}`]));
  expect(flushed.slice(-2)).toEqual([`sync ${folderPath}`, `sync ${photosRoot}`]);
  expect(flushed).toHaveLength(4);
});
