// Every file and folder the site and its commands make that can hold personal data is owner-only
// (0600 / 0700) whatever umask the process was started with, and places left wider are tightened.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackup, restoreBackup, type StatePlaces } from '@/server/upkeep/backup';
import { openDatabase } from '@/server/base/db';
import { checkEnquiryHealth, publicHealth } from '@/server/reports/health';
import { createMailer } from '@/server/delivery/mailer';
import { clearIncomingUploads, readMultipartEnquiry } from '@/server/intake/multipart-enquiry';
import { incomingDirOf } from '@/server/ledger/photo-store';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import {
  describeScan,
  privatePlacesOf,
  privatePlacesStillWide,
  scanPrivatePlaces,
  securePrivatePlacesAtStart,
  serverLockFile,
} from '@/server/base/private-files';
import { runShutdownHooks } from '@/server/base/shutdown-hooks.mjs';
import { resetConfig } from '@/server/base/config.mjs';
import { newEnquiry, photoToStore } from '@/tests/support/stored-enquiry';

let root: string;
let savedUmask: number;
const clients: Client[] = [];

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'homecare-private-'));
  savedUmask = process.umask();
});
afterEach(() => {
  process.umask(savedUmask);
  for (const client of clients.splice(0)) client.close();
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (target: string) => (lstatSync(target).mode & 0o777).toString(8);

/** Every entry under `folder` (itself included) with its mode, e.g. `enquiry-photos/…/1.jpg 600`. */
function modesUnder(folder: string): Record<string, string> {
  const modes: Record<string, string> = { '.': modeOf(folder) };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      modes[path.relative(folder, full)] = modeOf(full);
      if (lstatSync(full).isDirectory()) walk(full);
    }
  };
  walk(folder);
  return modes;
}

const onlyOwnerModes = (modes: Record<string, string>, folder: string) =>
  Object.entries(modes).filter(([name, mode]) => mode !== (statSync(path.join(folder, name)).isDirectory() ? '700' : '600'));

const placesIn = (folder: string): StatePlaces => ({
  databaseUrl: `file:${path.join(folder, 'data', 'site.db')}`,
  photosDir: path.join(folder, 'data', 'enquiry-photos'),
  galleryDir: path.join(folder, 'data', 'gallery'),
  outboxDir: path.join(folder, 'data', 'outbox'),
});

const photo = photoToStore(Buffer.alloc(2000, 7), 'IMG_1.jpg');

describe.each([0o000, 0o022])('under umask %o', (umask) => {
  it('the database and its -wal and -shm, photo folders and files, uploads waiting, saved e-mails, backups and what restore writes are owner-only', async () => {
    process.umask(umask);
    const places = placesIn(path.join(root, 'live'));
    const data = path.dirname(places.photosDir);

    const db = await openDatabase(places.databaseUrl);
    clients.push(db);
    const enquiry = newEnquiry({ subject: 'Leak', message: 'Water through the ceiling.', clientAddress: '203.0.113.9', photos: [photo] });
    const stored = await storeEnquiry(db, enquiry, Date.now(), { photosRoot: places.photosDir });
    expect(stored).toBeTruthy();

    // An upload waiting to be read, as the contact route leaves it while it checks the photos.
    const incoming = incomingDirOf(places.photosDir);
    await clearIncomingUploads(incoming);
    const form = new FormData();
    form.set('name', 'Jo');
    form.append('photos', new Blob([photo.bytes], { type: 'image/jpeg' }), 'IMG_1.jpg');
    const upload = await readMultipartEnquiry(new Request('http://localhost/api/contact', { method: 'POST', body: form }), {
      incomingDir: incoming,
    });
    expect(upload.ok).toBe(true);

    const mailer = createMailer({ smtpUrl: null, outboxDir: places.outboxDir });
    await mailer.send({
      from: 'site@homecare.test',
      to: 'office@homecare.test',
      subject: 'Enquiry',
      text: 'Jo Bloggs',
      messageId: '<enquiry-1.x@homecare.test>',
    });
    await mailer.close();

    const modes = modesUnder(data);
    // Every kind of file is there, so the check below covers each.
    expect(Object.keys(modes)).toEqual(
      expect.arrayContaining([
        'site.db',
        'site.db-wal',
        'site.db-shm',
        'enquiry-photos',
        path.join('enquiry-photos', '.incoming'),
        'outbox',
        path.join('outbox', 'enquiry-1.x_homecare.test.eml'),
      ]),
    );
    expect(Object.keys(modes).filter((name) => name.endsWith('1.jpg'))).toHaveLength(1);
    expect(Object.keys(modes).filter((name) => name.startsWith(path.join('enquiry-photos', '.incoming', 'upload-')))).toHaveLength(2);
    expect(onlyOwnerModes(modes, data)).toEqual([]);
    if (upload.ok) await upload.value.cleanup();

    const archive = path.join(root, 'backups', 'nightly', 'site.tar.gz');
    await createBackup(places, archive);
    expect(modeOf(archive)).toBe('600');
    expect(modeOf(path.dirname(archive))).toBe('700');
    expect(modeOf(path.join(root, 'backups'))).toBe('700');

    const restored = placesIn(path.join(root, 'restored'));
    await restoreBackup(archive, restored);
    const restoredData = path.dirname(restored.photosDir);
    const restoredModes = modesUnder(restoredData);
    expect(Object.keys(restoredModes)).toEqual(expect.arrayContaining(['site.db', 'enquiry-photos', 'outbox']));
    expect(onlyOwnerModes(restoredModes, restoredData)).toEqual([]);
  }, 30_000);
});

describe('tightening what is already there', () => {
  it('makes a wide data folder, database files, photos and saved e-mails owner-only, leaves links and other folders alone, and says what it changed', async () => {
    process.umask(0o022);
    const places = placesIn(path.join(root, 'site'));
    const data = path.dirname(places.photosDir);
    const folder = path.join(places.photosDir, '0b7f3c5e-1a2b-4c3d-8e9f-001122334455');
    mkdirSync(folder, { recursive: true });
    mkdirSync(places.outboxDir, { recursive: true });
    mkdirSync(places.galleryDir, { recursive: true });
    writeFileSync(path.join(folder, '1.jpg'), 'photo');
    writeFileSync(path.join(places.outboxDir, 'enquiry-1.eml'), 'mail');
    writeFileSync(path.join(data, 'site.db'), '');
    writeFileSync(path.join(data, 'site.db-shm'), '');
    writeFileSync(path.join(places.galleryDir, 'items.json'), '[]');
    const outside = path.join(root, 'elsewhere.txt');
    writeFileSync(outside, 'not ours to change');
    symlinkSync(outside, path.join(places.photosDir, 'link'));
    chmodSync(data, 0o755);
    expect(modeOf(path.join(data, 'site.db-shm'))).toBe('644');

    const settings = { databaseUrl: places.databaseUrl, photosDir: places.photosDir, outboxDir: places.outboxDir };
    const scan = await scanPrivatePlaces(privatePlacesOf(settings), { tighten: true });
    expect(scan.wide).toEqual([]);
    expect(scan.complete).toBe(true);
    expect(scan.tightened.map((place) => [path.relative(root, place.path), place.mode, place.now]).sort()).toEqual(
      [
        ['site/data', '755', '700'],
        ['site/data/site.db', '644', '600'],
        ['site/data/site.db-shm', '644', '600'],
        ['site/data/enquiry-photos', '755', '700'],
        ['site/data/enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455', '755', '700'],
        ['site/data/enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg', '644', '600'],
        ['site/data/outbox', '755', '700'],
        ['site/data/outbox/enquiry-1.eml', '644', '600'],
      ].sort(),
    );
    // The link's target is outside: neither followed nor changed. The gallery is public, and behind data/ now anyway.
    expect(modeOf(outside)).toBe('644');
    expect(modeOf(path.join(places.galleryDir, 'items.json'))).toBe('644');
    const { info, errors } = describeScan(scan);
    expect(info).toHaveLength(1);
    expect(info[0]).toMatch(
      /^\[privacy\] 8 place\(s\) holding personal data could be read by other users of this machine; now owner-only: .*site\.db-shm \(644 → 600\)/,
    );
    expect(errors).toEqual([]);
    // A second start has nothing to say.
    expect(describeScan(await scanPrivatePlaces(privatePlacesOf(settings), { tighten: true }))).toEqual({ info: [], errors: [] });
  });

  it('stops at its limit, and only reports when told to check', async () => {
    const places = placesIn(path.join(root, 'site'));
    mkdirSync(places.photosDir, { recursive: true, mode: 0o755 });
    for (let i = 0; i < 5; i += 1) writeFileSync(path.join(places.photosDir, `${i}.jpg`), 'x', { mode: 0o644 });
    chmodSync(places.photosDir, 0o755);
    const checked = await scanPrivatePlaces({ folders: [], files: [], trees: [places.photosDir] }, { tighten: false, limit: 3 });
    expect(checked).toMatchObject({ visited: 3, complete: false, tightened: [] });
    expect(checked.wide.map((place) => [path.basename(place.path), place.mode, place.reason])).toEqual([
      ['enquiry-photos', '755', 'only checked'],
      ['0.jpg', '644', 'only checked'],
      ['1.jpg', '644', 'only checked'],
    ]);
    expect(modeOf(places.photosDir)).toBe('755');
    expect(describeScan(checked).info.at(-1)).toBe('[privacy] stopped checking modes after 3 entries; npm run health checks them all.');
  });

  it('at server start: tightens, writes the lock file restore reads, removes it on shutdown; health names a place still readable', async () => {
    process.umask(0o022);
    const places = placesIn(path.join(root, 'site'));
    mkdirSync(places.outboxDir, { recursive: true, mode: 0o755 });
    chmodSync(places.outboxDir, 0o755);
    const env = { DATABASE_URL: places.databaseUrl, ENQUIRY_PHOTOS_DIR: places.photosDir, ENQUIRY_OUTBOX_DIR: places.outboxDir };
    const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
    Object.assign(process.env, env);
    resetConfig();
    try {
      const lines: string[] = [];
      const scan = await securePrivatePlacesAtStart({ log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) });
      expect(scan.tightened.map((place) => place.path).sort()).toEqual([path.dirname(places.outboxDir), places.outboxDir]);
      expect(lines).toHaveLength(1);
      const lockFile = serverLockFile(places);
      expect(lockFile).toBe(path.join(root, 'site', 'data', 'server.pid'));
      expect(statSync(lockFile).mode & 0o777).toBe(0o600);
      expect(await privatePlacesStillWide()).toEqual([]);

      // Someone widens the photos folder while the site runs: /api/health says so, without the path.
      mkdirSync(places.photosDir, { recursive: true });
      chmodSync(places.photosDir, 0o750);
      const wide = await privatePlacesStillWide();
      expect(wide).toEqual([{ path: places.photosDir, mode: '750' }]);
      const db = await openDatabase(places.databaseUrl);
      clients.push(db);
      const health = await checkEnquiryHealth(async () => db, { privateFiles: privatePlacesStillWide });
      expect(health).toMatchObject({ healthy: false, problems: ['personal-data-readable'], readablePlaces: wide });
      expect(publicHealth(health)).toMatchObject({ status: 503, body: { status: 'unhealthy', problems: ['personal-data-readable'] } });
      expect(JSON.stringify(publicHealth(health))).not.toContain(root);

      await runShutdownHooks(5000);
      expect(() => statSync(lockFile)).toThrow();
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      resetConfig();
    }
  });
});

describe('a database kept in a shared folder', () => {
  it('leaves the folder as it is (a world-writable or sticky folder is shared on purpose) and still tightens the files', async () => {
    const shared = mkdtempSync(path.join(tmpdir(), 'homecare-shared-'));
    try {
      chmodSync(shared, 0o1777);
      const database = path.join(shared, 'site.db');
      writeFileSync(database, '');
      chmodSync(database, 0o644);
      const scan = await scanPrivatePlaces({ folders: [shared], files: [database], trees: [] }, { tighten: true });
      expect(statSync(shared).mode & 0o7777).toBe(0o1777);
      expect(statSync(database).mode & 0o777).toBe(0o600);
      expect(scan.tightened.map((place) => place.path)).toEqual([database]);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
