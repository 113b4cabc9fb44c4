// A backup taken while enquiries are being written restores whole: every enquiry, photo, outbox job
// and gallery item of the snapshot, none twice, and the outbox resumes without resending.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import * as tar from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackupError, createBackup, restoreBackup, type StatePlaces } from '@/server/backup';
import { openDatabase } from '@/server/db';
import { createMailer } from '@/server/enquiries/mailer';
import { createOutboxWorker } from '@/server/enquiries/outbox-worker';
import { storeEnquiry } from '@/server/enquiries/store';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { startSmtpServer } from '@/tests/support/enquiry-peers';

let root: string;
const clients: Client[] = [];

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'homecare-backup-test-'));
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  rmSync(root, { recursive: true, force: true });
});

const placesIn = (folder: string): StatePlaces => ({
  databaseUrl: `file:${path.join(folder, 'site.db')}`,
  photosDir: path.join(folder, 'enquiry-photos'),
  galleryDir: path.join(folder, 'gallery'),
  outboxDir: path.join(folder, 'outbox'),
});

async function open(places: StatePlaces) {
  const client = await openDatabase(places.databaseUrl);
  clients.push(client);
  return client;
}

const photo = (seed: number) => ({
  bytes: Buffer.alloc(1000 + seed, seed % 256),
  width: 2048,
  height: 1536,
  contentType: 'image/jpeg' as const,
  originalName: `IMG_${seed}.jpg`,
});

let sequence = 0;
function store(db: Client, places: StatePlaces) {
  sequence += 1;
  return storeEnquiry(
    db,
    {
      values: {
        name: 'Jo Bloggs',
        email: `jo${sequence}@example.com`,
        phone: '',
        subject: `Enquiry ${sequence}`,
        message: 'Slates off after the storm.',
      },
      claim: null,
      clientAddress: `203.0.113.${sequence % 250}`,
      disposition: 'accepted',
      verification: 'not-configured',
      photos: [photo(sequence), photo(sequence + 1000)],
    },
    Date.now(),
    { photosRoot: places.photosDir },
  );
}

const all = async (db: Client, sql: string) => (await db.execute(sql)).rows.map((row) => ({ ...row }));

/** Seeds a state: enquiries with photos whose notifications were sent (saved as .eml), and a gallery item. */
async function seed(places: StatePlaces, enquiries: number) {
  const db = await open(places);
  for (let i = 0; i < enquiries; i += 1) await store(db, places);
  const mailer = createMailer({ smtpUrl: null, outboxDir: places.outboxDir });
  const worker = createOutboxWorker({
    db,
    mailer,
    from: 'site@homecare.test',
    to: 'office@homecare.test',
    pollMs: 60_000,
    photosRoot: places.photosDir,
  });
  expect(await worker.runOnce()).toBe(enquiries);
  mkdirSync(path.join(places.galleryDir, 'item-1'), { recursive: true });
  writeFileSync(path.join(places.galleryDir, 'items.json'), '[{"_id":"item-1"}]');
  writeFileSync(path.join(places.galleryDir, 'item-1', '640.webp'), Buffer.alloc(5000, 9));
  return db;
}

describe('npm run backup / npm run restore', () => {
  it('a snapshot taken while enquiries are being written restores every enquiry, photo, job and gallery item once; the outbox resends nothing', async () => {
    const live = placesIn(path.join(root, 'live'));
    await seed(live, 10);
    // Another connection, as the running site, keeps writing enquiries while the backup is taken.
    const writer = await open(live);
    let writing = true;
    const written = (async () => {
      let count = 0;
      while (writing) {
        await store(writer, live);
        count += 1;
      }
      return count;
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const archive = path.join(root, 'backups', 'site.tar.gz');
    const { manifest, notes } = await createBackup(live, archive);
    writing = false;
    const extra = await written;
    expect(extra).toBeGreaterThan(0);
    expect(notes).toEqual([]);
    expect(manifest.database).toBe(true);
    expect(manifest.enquiries).toBeGreaterThan(10);
    expect(manifest.files.outbox).toBe(10);
    expect(existsSync(`${archive}.partial`)).toBe(false);

    const restoredPlaces = placesIn(path.join(root, 'restored'));
    expect(await restoreBackup(archive, restoredPlaces)).toEqual(manifest);
    const restored = await open(restoredPlaces);
    const enquiries = await all(restored, 'SELECT id, reference, submission_key FROM enquiries ORDER BY id');
    expect(enquiries).toHaveLength(manifest.enquiries!);
    expect(new Set(enquiries.map((row) => row.reference)).size).toBe(enquiries.length);
    // Every photo row of the snapshot has its file, whole.
    const photos = await all(
      restored,
      'SELECT e.submission_key AS folder, p.file_name, p.bytes FROM enquiry_photos p JOIN enquiries e ON e.id = p.enquiry_id',
    );
    expect(photos).toHaveLength(manifest.photos!);
    expect(photos).toHaveLength(2 * enquiries.length);
    for (const row of photos)
      expect(statSync(path.join(restoredPlaces.photosDir, String(row.folder), String(row.file_name))).size).toBe(row.bytes);
    expect(readFileSync(path.join(restoredPlaces.galleryDir, 'item-1', '640.webp'))).toEqual(Buffer.alloc(5000, 9));
    expect(readdirSync(restoredPlaces.outboxDir).sort()).toEqual(readdirSync(live.outboxDir).sort());

    // The first ten were sent before the backup: the restored outbox sends only the others, once each.
    const pending = await all(restored, "SELECT enquiry_id FROM enquiry_notifications WHERE status = 'pending' ORDER BY enquiry_id");
    expect(pending.map((row) => Number(row.enquiry_id))).toEqual(enquiries.slice(10).map((row) => Number(row.id)));
    const smtp = await startSmtpServer(0);
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    try {
      const worker = createOutboxWorker({
        db: restored,
        mailer,
        from: 'site@homecare.test',
        to: 'office@homecare.test',
        pollMs: 60_000,
        photosRoot: restoredPlaces.photosDir,
      });
      while ((await worker.runOnce()) > 0);
      const sentSubjects = smtp.received.map((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1]);
      expect(sentSubjects).toHaveLength(pending.length);
      for (let n = 1; n <= 10; n += 1) expect(sentSubjects.some((subject) => subject?.endsWith(`: Enquiry ${n}`))).toBe(false);
    } finally {
      await mailer.close();
      await smtp.close();
    }
  }, 60_000);

  it('refuses a state that is not empty, naming what is there, and replaces it when told', async () => {
    const live = placesIn(path.join(root, 'live'));
    await seed(live, 2);
    const archive = path.join(root, 'site.tar.gz');
    await createBackup(live, archive);
    const other = placesIn(path.join(root, 'other'));
    const db = await seed(other, 3);
    db.close();
    clients.splice(clients.indexOf(db), 1);
    const refusal = await restoreBackup(archive, other).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as Error).message).toContain(path.join(root, 'other', 'site.db'));
    expect((refusal as Error).message).toContain(other.photosDir);
    for (const client of clients.splice(0)) client.close();
    await restoreBackup(archive, other, { replace: true });
    const restored = await open(other);
    expect(await all(restored, 'SELECT subject FROM enquiries ORDER BY id')).toHaveLength(2);
  }, 30_000);

  it('leaves out uploads in progress, and says plainly that a hosted database is not in the archive', async () => {
    const live = placesIn(path.join(root, 'live'));
    await seed(live, 1);
    mkdirSync(path.join(live.photosDir, '.incoming'), { recursive: true });
    writeFileSync(path.join(live.photosDir, '.incoming', 'upload-1'), 'half an upload');
    const archive = path.join(root, 'hosted.tar.gz');
    const { manifest, notes } = await createBackup({ ...live, databaseUrl: 'libsql://homecare-example.turso.io' }, archive);
    expect(manifest).toMatchObject({ database: false, enquiries: null, photos: null });
    expect(notes).toEqual([
      "The database is hosted (homecare-example.turso.io): this archive does not hold it. Back it up with your provider's own tools; the archive holds the photos, the gallery and the outbox files.",
    ]);
    const entries: string[] = [];
    await tar.t({ file: archive, onReadEntry: (entry) => void entries.push(entry.path) });
    expect(entries.some((entry) => entry.startsWith('database'))).toBe(false);
    expect(entries.some((entry) => entry.includes('.incoming'))).toBe(false);
    expect(entries.filter((entry) => entry.startsWith('enquiry-photos/') && entry.endsWith('.jpg'))).toHaveLength(2);
  }, 30_000);

  it('the commands: backup writes the archive from the configured places; restore refuses a state in use', async () => {
    const live = placesIn(path.join(root, 'live'));
    (await seed(live, 1)).close();
    clients.length = 0;
    const env = {
      DATABASE_URL: live.databaseUrl,
      ENQUIRY_PHOTOS_DIR: live.photosDir,
      GALLERY_DIR: live.galleryDir,
      ENQUIRY_OUTBOX_DIR: live.outboxDir,
    };
    const archive = path.join(root, 'cli.tar.gz');
    const backup = await runToEnd(spawnTs('scripts/backup.ts', ['--out', archive], env));
    expect(backup.code).toBe(0);
    expect(backup.lines).toEqual([`Wrote ${archive}: the database (1 enquiries, 2 photos); files: 2 enquiry photos, 2 gallery, 1 outbox.`]);
    const restore = await runToEnd(spawnTs('scripts/restore.ts', [archive], env));
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain('Not empty, so not restored into (add --replace to delete what is there first):');
    expect((await runToEnd(spawnTs('scripts/backup.ts', [], env))).code).toBe(2);
  }, 60_000);
});
