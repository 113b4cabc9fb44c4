// A backup taken while enquiries are being written restores whole: every enquiry, photo, outbox job
// and gallery item of the snapshot, none twice, and the outbox resumes without resending.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Client } from '@libsql/client';
import * as age from 'age-encryption';
import * as tar from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackupError, createBackup, restoreBackup, type StatePlaces } from '@/server/upkeep/backup';
import { openDatabase } from '@/server/base/db';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { runToEnd, spawnTs, waitForLine } from '@/tests/support/child-process';
import { startSmtpServer } from '@/tests/support/enquiry-peers';
import { newEnquiry, photoToStore } from '@/tests/support/stored-enquiry';

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

const photo = (seed: number) => photoToStore(Buffer.alloc(1000 + seed, seed % 256), `IMG_${seed}.jpg`);

let sequence = 0;
function store(db: Client, places: StatePlaces) {
  sequence += 1;
  const enquiry = newEnquiry({
    email: `jo${sequence}@example.com`,
    subject: `Enquiry ${sequence}`,
    message: 'Slates off after the storm.',
    clientAddress: `203.0.113.${sequence % 250}`,
    photos: [photo(sequence), photo(sequence + 1000)],
  });
  return storeEnquiry(db, enquiry, Date.now(), { photosRoot: places.photosDir });
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
    // Written through a temporary name: nothing is left beside the archive.
    expect(readdirSync(path.dirname(archive))).toEqual(['site.tar.gz']);

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

  it('the commands: backup writes the archive from the configured places; restore refuses a state that is not empty, or in use, naming the process', async () => {
    const live = placesIn(path.join(root, 'live'));
    // This test's process keeps the database open, as the running site would.
    await seed(live, 1);
    const env = {
      DATABASE_URL: live.databaseUrl,
      ENQUIRY_PHOTOS_DIR: live.photosDir,
      GALLERY_DIR: live.galleryDir,
      ENQUIRY_OUTBOX_DIR: live.outboxDir,
    };
    const archive = path.join(root, 'cli.tar.gz');
    const backup = await runToEnd(spawnTs('scripts/backup.ts', ['--out', archive], env));
    expect(backup.code).toBe(0);
    expect(backup.lines).toEqual([
      `Wrote ${archive}, not encrypted: the database (1 enquiries, 2 photos); files: 2 enquiry photos, 2 gallery, 1 outbox.`,
    ]);
    const inUse = await runToEnd(spawnTs('scripts/restore.ts', [archive, '--replace'], env));
    expect(inUse.code).toBe(1);
    expect(inUse.stderr.trim()).toMatch(
      new RegExp(
        `^The site's data is in use, so it is not restored into: process ${process.pid} \\(.*node.*\\) holds ${live.databaseUrl.slice(5)}\\. Stop the site first \\(systemctl stop homecare\\), then restore\\.$`,
      ),
    );

    const other = placesIn(path.join(root, 'other'));
    mkdirSync(other.photosDir, { recursive: true });
    writeFileSync(path.join(other.photosDir, 'left-over.jpg'), 'x');
    const otherEnv = {
      ...env,
      DATABASE_URL: other.databaseUrl,
      ENQUIRY_PHOTOS_DIR: other.photosDir,
      GALLERY_DIR: other.galleryDir,
      ENQUIRY_OUTBOX_DIR: other.outboxDir,
    };
    const restore = await runToEnd(spawnTs('scripts/restore.ts', [archive], otherEnv));
    expect(restore.code).toBe(1);
    expect(restore.stderr).toBe(`Not empty, so not restored into (add --replace to delete what is there first):\n  ${other.photosDir}\n`);
    expect((await runToEnd(spawnTs('scripts/backup.ts', [], env))).code).toBe(2);
  }, 60_000);
});

describe('encrypted backups', () => {
  it('encrypts to one or more age public keys; either private key restores it; a wrong key or none is refused in a sentence, writing nothing', async () => {
    const live = placesIn(path.join(root, 'live'));
    await seed(live, 2);
    const [office, offsite, stranger] = await Promise.all([age.generateIdentity(), age.generateIdentity(), age.generateIdentity()]);
    const archive = path.join(root, 'site.tar.gz.age');
    const { manifest } = await createBackup(live, archive, {
      recipients: [await age.identityToRecipient(office), await age.identityToRecipient(offsite)],
    });
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(archive);
    expect(bytes.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
    // Nothing of the contents shows in the clear, not even the gzip header.
    expect(bytes.includes(Buffer.from('manifest.json'))).toBe(false);
    expect(bytes.includes(Buffer.from([0x1f, 0x8b, 0x08]))).toBe(false);

    const target = placesIn(path.join(root, 'restored'));
    for (const identities of [[], [stranger]]) {
      const refusal = await restoreBackup(archive, target, { identities }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(BackupError);
      expect((refusal as Error).message).toBe(
        identities.length === 0
          ? `${archive} is encrypted: give the private key that opens it with --identity KEYFILE.`
          : `None of the private keys given with --identity opens ${archive}: it was encrypted to other public keys.`,
      );
      expect(existsSync(path.join(root, 'restored'))).toBe(false);
    }

    expect(await restoreBackup(archive, target, { identities: [stranger, offsite] })).toEqual(manifest);
    const restored = await open(target);
    expect(await all(restored, 'SELECT subject FROM enquiries ORDER BY id')).toEqual([
      { subject: 'Enquiry ' + (sequence - 1) },
      { subject: 'Enquiry ' + sequence },
    ]);
  }, 30_000);

  it('the commands: --recipient and --recipients-file, --identity with an age key file; keys that are not keys are refused plainly', async () => {
    const live = placesIn(path.join(root, 'live'));
    (await seed(live, 1)).close();
    clients.length = 0;
    const identity = await age.generateIdentity();
    const recipient = await age.identityToRecipient(identity);
    const second = await age.identityToRecipient(await age.generateIdentity());
    const keyFile = path.join(root, 'key.txt');
    writeFileSync(keyFile, `# created: 2026-11-25T03:00:00Z\n# public key: ${recipient}\n${identity}\n`);
    const recipientsFile = path.join(root, 'recipients.txt');
    writeFileSync(recipientsFile, `# the office laptop\n${second}\n`);
    const env = {
      DATABASE_URL: live.databaseUrl,
      ENQUIRY_PHOTOS_DIR: live.photosDir,
      GALLERY_DIR: live.galleryDir,
      ENQUIRY_OUTBOX_DIR: live.outboxDir,
    };
    const archive = path.join(root, 'site.tar.gz.age');
    const backup = await runToEnd(
      spawnTs('scripts/backup.ts', ['--out', archive, '--recipient', recipient, '--recipients-file', recipientsFile], env),
    );
    expect(backup.code).toBe(0);
    expect(backup.lines[0]).toMatch(/, encrypted to 2 public keys: the database \(1 enquiries, 2 photos\)/);

    const bad = await runToEnd(spawnTs('scripts/backup.ts', ['--out', path.join(root, 'x.age'), '--recipient', identity], env));
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(
      'That is a private key (AGE-SECRET-KEY-…): a backup is encrypted to the public key (age1…); keep the private key off this server.',
    );
    expect(
      (await runToEnd(spawnTs('scripts/backup.ts', ['--out', path.join(root, 'x.age'), '--recipient', 'age1nope'], env))).stderr.trim(),
    ).toBe('Not an age public key: "age1nope" (one begins with age1; age-keygen -y KEYFILE prints it).');
    expect(existsSync(path.join(root, 'x.age'))).toBe(false);

    const target = placesIn(path.join(root, 'restored'));
    const targetEnv = {
      DATABASE_URL: target.databaseUrl,
      ENQUIRY_PHOTOS_DIR: target.photosDir,
      GALLERY_DIR: target.galleryDir,
      ENQUIRY_OUTBOX_DIR: target.outboxDir,
    };
    const wrongKeyFile = path.join(root, 'wrong.txt');
    writeFileSync(wrongKeyFile, 'not a key\n');
    const wrong = await runToEnd(spawnTs('scripts/restore.ts', [archive, '--identity', wrongKeyFile], targetEnv));
    expect(wrong).toMatchObject({
      code: 1,
      stderr: `Line 1 of ${wrongKeyFile} is not an age private key (one begins with AGE-SECRET-KEY-1).\n`,
    });
    const restore = await runToEnd(spawnTs('scripts/restore.ts', [archive, '--identity', keyFile], targetEnv));
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(readdirSync(target.outboxDir)).toHaveLength(1);
  }, 60_000);
});

type CraftedEntry = { path: string; type?: string; body?: string | Buffer; linkpath?: string };

/** A .tar.gz written header by header, holding whatever a hostile or damaged archive might. */
function craftArchive(file: string, entries: CraftedEntry[]): string {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const header = new tar.Header({
      path: entry.path,
      type: (entry.type ?? 'File') as tar.Header['type'],
      size: entry.type && entry.type !== 'File' ? 0 : body.length,
      mode: entry.type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date('2026-11-25T03:00:00Z'),
      linkpath: entry.linkpath,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (body.length > 0 && (entry.type ?? 'File') === 'File') blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  writeFileSync(file, gzipSync(Buffer.concat(blocks)));
  return file;
}

const goodManifest = JSON.stringify({
  format: 'homecare-backup',
  version: 1,
  createdAt: '2026-11-25T03:00:00.000Z',
  database: false,
  enquiries: null,
  photos: null,
  files: { 'enquiry-photos': 1, gallery: 0, outbox: 0 },
});
const manifestEntry = { path: 'manifest.json', body: goodManifest };
const photoEntry = { path: 'enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg', body: 'jpeg bytes' };

describe('restore refuses archives that hold more than a backup', () => {
  const target = () => placesIn(path.join(root, 'target'));
  const refusalOf = async (file: string) => {
    const refusal = await restoreBackup(file, target()).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BackupError);
    // Nothing written to the places the site uses.
    expect(existsSync(path.join(root, 'target'))).toBe(false);
    return (refusal as Error).message;
  };

  it.each([
    [
      'an absolute symbolic link',
      [manifestEntry, { path: 'enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg', type: 'SymbolicLink', linkpath: '/etc/passwd' }],
      'holds a symbolic link, "enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg" to "/etc/passwd": a backup holds only files and folders, so it is not restored.',
    ],
    [
      'a relative symbolic link climbing out',
      [manifestEntry, { path: 'enquiry-photos/escape', type: 'SymbolicLink', linkpath: '../../../../root/.ssh' }, photoEntry],
      'holds a symbolic link, "enquiry-photos/escape" to "../../../../root/.ssh": a backup holds only files and folders, so it is not restored.',
    ],
    [
      'a hard link',
      [
        manifestEntry,
        photoEntry,
        { path: 'outbox/copy.eml', type: 'Link', linkpath: 'enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg' },
      ],
      'holds a hard link, "outbox/copy.eml" to "enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg": a backup holds only files and folders, so it is not restored.',
    ],
    [
      'a device',
      [manifestEntry, { path: 'gallery/disk', type: 'BlockDevice' }],
      'holds a device, "gallery/disk": a backup holds only files and folders, so it is not restored.',
    ],
    [
      'a path climbing out with ../',
      [manifestEntry, { path: 'enquiry-photos/../../../etc/cron.d/evil', body: '* * * * * root sh' }],
      'holds "enquiry-photos/../../../etc/cron.d/evil", a path that climbs out of the archive: it is not restored.',
    ],
    [
      'an absolute path',
      [manifestEntry, { path: '/etc/cron.d/evil', body: 'x' }],
      'holds "/etc/cron.d/evil", an absolute path: a backup holds only paths inside its own folders, so it is not restored.',
    ],
    [
      'a path outside the known folders',
      [manifestEntry, { path: 'node_modules/next/index.js', body: 'x' }],
      'holds "node_modules/next/index.js", outside the folders a backup holds (manifest.json, database/site.db, enquiry-photos, gallery, outbox): it is not restored.',
    ],
    [
      'an unknown manifest',
      [{ path: 'manifest.json', body: JSON.stringify({ format: 'homecare-backup', version: 2 }) }, photoEntry],
      'has a manifest.json this site does not know (format "homecare-backup", version 2): it is not restored.',
    ],
    [
      'no manifest first',
      [photoEntry, manifestEntry],
      'does not begin with manifest.json (it begins with "enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg"): it is not a backup of this site.',
    ],
  ] as [string, CraftedEntry[], string][])('%s', async (_name, entries, sentence) => {
    const file = craftArchive(path.join(root, 'crafted.tar.gz'), entries);
    expect(await refusalOf(file)).toBe(`${file} ${sentence}`);
  });

  it('an archive cut short, plain or encrypted; a file that is not an archive at all', async () => {
    const big = randomBytes(300_000);
    const whole = craftArchive(path.join(root, 'whole.tar.gz'), [manifestEntry, { ...photoEntry, body: big }]);
    const cut = path.join(root, 'cut.tar.gz');
    writeFileSync(cut, readFileSync(whole).subarray(0, 200_000));
    expect(await refusalOf(cut)).toBe(
      `${cut} is cut short or damaged: reading stopped inside "enquiry-photos/0b7f3c5e-1a2b-4c3d-8e9f-001122334455/1.jpg" (it ends too soon).`,
    );

    const identity = await age.generateIdentity();
    const encrypter = new age.Encrypter();
    encrypter.addRecipient(await age.identityToRecipient(identity));
    const sealed = Buffer.from(await encrypter.encrypt(readFileSync(whole)));
    const cutSealed = path.join(root, 'cut.tar.gz.age');
    writeFileSync(cutSealed, sealed.subarray(0, sealed.length - 70_000));
    const refusal = await restoreBackup(cutSealed, target(), { identities: [identity] }).catch((error: unknown) => error);
    expect((refusal as Error).message).toMatch(
      new RegExp(`^${cutSealed.replace(/\./g, '\\.')} is cut short or damaged: reading stopped inside "enquiry-photos/.*/1\\.jpg" \\(`),
    );
    expect(existsSync(path.join(root, 'target'))).toBe(false);

    const notes = path.join(root, 'notes.txt');
    writeFileSync(notes, 'just some text');
    expect(await refusalOf(notes)).toBe(`${notes} is not a backup of this site: it is neither a .tar.gz archive nor an age-encrypted one.`);
    // The untouched archive restores: the refusals above were about the damage, not the contents.
    await restoreBackup(whole, target());
    expect(readFileSync(path.join(target().photosDir, '0b7f3c5e-1a2b-4c3d-8e9f-001122334455', '1.jpg'))).toEqual(big);
  });

  it('refuses while a server holds the database, or its lock file names a live process, naming it', async () => {
    const live = placesIn(path.join(root, 'live'));
    (await seed(live, 1)).close();
    clients.length = 0;
    const archive = path.join(root, 'site.tar.gz');
    await createBackup(live, archive);
    // Another process holds the database open, as the running site does.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createClient } from '@libsql/client'; const c = createClient({ url: ${JSON.stringify(live.databaseUrl)} }); await c.execute('SELECT 1'); console.log('open'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await waitForLine(holder, /^open$/);
      const refusal = await restoreBackup(archive, live, { replace: true }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(BackupError);
      expect((refusal as Error).message).toMatch(
        new RegExp(
          `^The site's data is in use, so it is not restored into: process ${holder.pid} \\(.*node --input-type=module -e .*\\) holds ${live.databaseUrl.slice(5)}\\. Stop the site first`,
        ),
      );
      // Nothing was replaced.
      expect(readdirSync(live.outboxDir)).toHaveLength(1);

      // With a hosted database only the lock file the server writes at start tells.
      const hosted = { ...placesIn(path.join(root, 'hosted')), databaseUrl: 'libsql://homecare-example.turso.io' };
      mkdirSync(path.join(root, 'hosted'), { recursive: true });
      writeFileSync(path.join(root, 'hosted', 'server.pid'), `${holder.pid}\n`);
      const locked = await restoreBackup(archive, hosted).catch((error: unknown) => error);
      expect((locked as Error).message).toContain(`process ${holder.pid} (`);
      expect((locked as Error).message).toContain(`holds ${path.join(root, 'hosted', 'server.pid')}`);
    } finally {
      holder.kill();
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    // A lock file left by a process that has gone is no reason to refuse.
    const stale = placesIn(path.join(root, 'stale'));
    mkdirSync(path.join(root, 'stale'), { recursive: true });
    writeFileSync(path.join(root, 'stale', 'server.pid'), `${holder.pid}\n`);
    await restoreBackup(archive, stale);
    expect(readdirSync(stale.outboxDir)).toHaveLength(1);
  }, 30_000);
});
