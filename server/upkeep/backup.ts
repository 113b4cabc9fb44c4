import 'server-only';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { cp, mkdtemp, open, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { createClient } from '@libsql/client';
import { armor, Decrypter, Encrypter } from 'age-encryption';
import * as tar from 'tar';
import { z } from 'zod';
import { config } from '@/server/base/config.mjs';
import { BUSY_TIMEOUT_MS } from '@/server/base/db';
import { incomingDirOf } from '@/server/ledger/photo-store';
import {
  databaseFileOf,
  makePrivateDir,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  scanPrivatePlaces,
  serverLockFile,
} from '@/server/base/private-files';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';

/**
 * One archive (.tar.gz) of everything the site keeps: the database as a consistent snapshot taken with
 * SQLite's `VACUUM INTO` (safe while the site is running and writing; never a file copy), the enquiry
 * photos, the built-in gallery's added items and the outbox's saved messages. Written owner-only, and
 * encrypted to one or more age public keys when given, so it can be kept on another machine. Restored
 * into an empty state only, unless told to replace what is there, and never while the site runs on it.
 */
export type StatePlaces = {
  databaseUrl: string;
  photosDir: string;
  galleryDir: string;
  outboxDir: string;
};

/** Where this environment keeps the site's state (DATABASE_URL and the three folders). */
export function statePlaces(): StatePlaces {
  const settings = config();
  return {
    databaseUrl: settings.database.url,
    photosDir: settings.enquiries.photosDir,
    galleryDir: settings.galleryDir,
    outboxDir: settings.enquiries.outboxDir,
  };
}

const BACKUP_FORMAT = 'homecare-backup';
const MANIFEST_ENTRY = 'manifest.json';
const DATABASE_FOLDER = 'database';
const DATABASE_ENTRY = `${DATABASE_FOLDER}/site.db`;
const FOLDERS = { 'enquiry-photos': 'photosDir', gallery: 'galleryDir', outbox: 'outboxDir' } as const satisfies Record<
  string,
  keyof StatePlaces
>;
type FolderEntry = keyof typeof FOLDERS;
const isFolderEntry = (name: string): name is FolderEntry => Object.hasOwn(FOLDERS, name);

const count = z.number().int().nonnegative();
const manifestSchema = z
  .object({
    format: z.literal(BACKUP_FORMAT),
    version: z.literal(1),
    createdAt: z.iso.datetime(),
    /** False for a hosted libSQL database, which the archive cannot hold. */
    database: z.boolean(),
    enquiries: count.nullable(),
    photos: count.nullable(),
    files: z.object({ 'enquiry-photos': count, gallery: count, outbox: count }).strict(),
  })
  .strict();
type BackupManifest = z.infer<typeof manifestSchema>;

type BackupResult = { manifest: BackupManifest; notes: string[] };

/** A refusal or failure an operator can act on: its message is the whole story (no stack trace). */
export class BackupError extends Error {}

/** The database file of a `file:` URL, or null for a hosted (libsql://, https://) database. */
function localDatabaseFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const file = databaseFileOf(url);
  if (!file) throw new BackupError(`DATABASE_URL ${url} names no database file.`);
  return file;
}

const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  );

async function countFiles(folder: string, skip?: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  let files = 0;
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (full === skip) continue;
    files += entry.isDirectory() ? await countFiles(full, skip) : 1;
  }
  return files;
}

async function countRows(databaseFile: string) {
  const client = createClient({ url: `file:${databaseFile}` });
  try {
    const rows = async (table: string) => Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
    return { enquiries: await rows('enquiries'), photos: await rows('enquiry_photos') };
  } finally {
    client.close();
  }
}

// --- age keys ---------------------------------------------------------------------------------------

/** The lines of a key file that hold keys: blank lines and `#` comments (age-keygen writes some) left out. */
const keyLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'));

/** Checks each public key (`age1…`) before any work starts. */
export function checkRecipients(recipients: readonly string[]): string[] {
  return recipients.map((recipient) => {
    const key = recipient.trim();
    if (/^AGE-SECRET-KEY-/i.test(key))
      throw new BackupError(
        'That is a private key (AGE-SECRET-KEY-…): a backup is encrypted to the public key (age1…); keep the private key off this server.',
      );
    try {
      if (!key.startsWith('age1')) throw new Error('no age1 prefix');
      new Encrypter().addRecipient(key);
    } catch {
      throw new BackupError(`Not an age public key: "${key}" (one begins with age1; age-keygen -y KEYFILE prints it).`);
    }
    return key;
  });
}

/** The public keys of a recipients file: one `age1…` per line, `#` comments allowed (as `age -R` reads). */
export async function readRecipientsFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BackupError(`Could not read the recipients file ${file} (${(error as NodeJS.ErrnoException).code ?? error}).`);
  }
  const keys = keyLines(text).map(({ line }) => line);
  if (keys.length === 0) throw new BackupError(`The recipients file ${file} holds no public key.`);
  return checkRecipients(keys);
}

/** The private keys (`AGE-SECRET-KEY-1…`) of an identity file as age-keygen writes it. */
export async function readIdentityFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BackupError(`Could not read the identity file ${file} (${(error as NodeJS.ErrnoException).code ?? error}).`);
  }
  const identities = keyLines(text).map(({ line, number }) => {
    try {
      if (!/^AGE-SECRET-KEY-/.test(line)) throw new Error('not a secret key');
      new Decrypter().addIdentity(line);
    } catch {
      throw new BackupError(`Line ${number} of ${file} is not an age private key (one begins with AGE-SECRET-KEY-1).`);
    }
    return line;
  });
  if (identities.length === 0) throw new BackupError(`The identity file ${file} holds no private key.`);
  return identities;
}

// --- backup -----------------------------------------------------------------------------------------

type BackupOptions = {
  now?: Date;
  /** age public keys (age1…): with any, the archive is encrypted so that only their private keys open it. */
  recipients?: readonly string[];
};

/**
 * Writes the archive to `outFile`, mode 0600, through a temporary name (so a failed backup leaves no
 * half archive); encrypted with age when recipients are given.
 */
export async function createBackup(places: StatePlaces, outFile: string, options: BackupOptions = {}): Promise<BackupResult> {
  const recipients = checkRecipients(options.recipients ?? []);
  const now = options.now ?? new Date();
  const stage = await mkdtemp(path.join(tmpdir(), 'homecare-backup-'));
  const notes: string[] = [];
  try {
    const databaseFile = localDatabaseFile(places.databaseUrl);
    let rows = { enquiries: null as number | null, photos: null as number | null };
    if (databaseFile) {
      if (!(await exists(databaseFile))) throw new BackupError(`No database at ${databaseFile} (DATABASE_URL).`);
      await makePrivateDir(path.join(stage, DATABASE_FOLDER));
      const snapshot = path.join(stage, DATABASE_ENTRY);
      // VACUUM INTO fills an empty file it finds; made here, the snapshot is owner-only too.
      await writeFile(snapshot, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      const client = createClient({ url: `file:${databaseFile}`, timeout: BUSY_TIMEOUT_MS });
      try {
        // A transactionally consistent copy, taken while other connections keep writing.
        await client.execute({ sql: 'VACUUM INTO ?', args: [snapshot] });
      } finally {
        client.close();
      }
      rows = await countRows(snapshot);
    } else {
      notes.push(
        `The database is hosted (${new URL(places.databaseUrl).host}): this archive does not hold it. Back it up with your provider's own tools; the archive holds the photos, the gallery and the outbox files.`,
      );
    }

    // The folders go in through links in the stage, so each lands under its own name in the archive.
    const entries: string[] = [];
    const files = { 'enquiry-photos': 0, gallery: 0, outbox: 0 };
    for (const [entry, place] of Object.entries(FOLDERS) as [FolderEntry, keyof StatePlaces][]) {
      const folder = path.resolve(places[place]);
      if (!(await exists(folder))) continue;
      await symlink(folder, path.join(stage, entry));
      entries.push(entry);
      files[entry] = await countFiles(folder, entry === 'enquiry-photos' ? incomingDirOf(folder) : undefined);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: now.toISOString(),
      database: databaseFile !== null,
      ...rows,
      files,
    };
    await writeFile(path.join(stage, MANIFEST_ENTRY), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });

    await makePrivateDir(path.dirname(path.resolve(outFile)));
    const incoming = path.join(stage, 'enquiry-photos', '.incoming');
    const pack = tar.c(
      {
        gzip: true,
        cwd: stage,
        follow: true,
        portable: true,
        // Uploads being read right now are not enquiries yet.
        filter: (entryPath) => !path.resolve(stage, entryPath).startsWith(incoming),
      },
      // The manifest first: restore reads it before anything else.
      [MANIFEST_ENTRY, ...(databaseFile ? [DATABASE_FOLDER] : []), ...entries],
    );
    let archive: Readable = Readable.from(pack);
    if (recipients.length > 0) {
      const encrypter = new Encrypter();
      for (const recipient of recipients) encrypter.addRecipient(recipient);
      const encrypted = await encrypter.encrypt(Readable.toWeb(archive) as ReadableStream<Uint8Array>);
      archive = Readable.fromWeb(encrypted as unknown as NodeReadableStream<Uint8Array>);
    }
    // Owner-only from the moment the file is made, whatever the umask.
    await writeFileAtomic(outFile, archive, { mode: PRIVATE_FILE_MODE });
    return { manifest, notes };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

// --- restore ----------------------------------------------------------------------------------------

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const TYPE_NAMES: Record<string, string> = {
  SymbolicLink: 'a symbolic link',
  Link: 'a hard link',
  CharacterDevice: 'a device',
  BlockDevice: 'a device',
  FIFO: 'a named pipe',
};

/** Why an entry may not be restored (one sentence), or null when it is a file or folder where backups put them. */
function refusalOf(archive: string, entry: { path: string; type: string; linkpath?: string }, first: boolean): string | null {
  const name = JSON.stringify(entry.path);
  const directory = entry.type === 'Directory';
  if (!directory && !FILE_TYPES.has(entry.type)) {
    const what = TYPE_NAMES[entry.type] ?? `an entry of type ${entry.type}`;
    const target = entry.linkpath ? ` to ${JSON.stringify(entry.linkpath)}` : '';
    return `${archive} holds ${what}, ${name}${target}: a backup holds only files and folders, so it is not restored.`;
  }
  if (entry.path.startsWith('/') || /^[A-Za-z]:/.test(entry.path) || entry.path.includes('\\') || entry.path.includes('\0'))
    return `${archive} holds ${name}, an absolute path: a backup holds only paths inside its own folders, so it is not restored.`;
  const parts = entry.path.split('/');
  if (directory && parts.at(-1) === '') parts.pop();
  if (parts.some((part) => part === '..')) return `${archive} holds ${name}, a path that climbs out of the archive: it is not restored.`;
  if (parts.some((part) => part === '' || part === '.'))
    return `${archive} holds ${name}, a path no backup of this site makes: it is not restored.`;
  const [top, ...rest] = parts;
  const isManifest = top === MANIFEST_ENTRY && rest.length === 0 && !directory;
  if (first && !isManifest)
    return `${archive} does not begin with ${MANIFEST_ENTRY} (it begins with ${name}): it is not a backup of this site.`;
  if (isManifest) return first ? null : `${archive} holds a second ${MANIFEST_ENTRY}: it is not restored.`;
  const known =
    (top === DATABASE_FOLDER && ((directory && rest.length === 0) || (!directory && parts.join('/') === DATABASE_ENTRY))) ||
    (top !== undefined && isFolderEntry(top));
  if (!known)
    return `${archive} holds ${name}, outside the folders a backup holds (${[MANIFEST_ENTRY, DATABASE_ENTRY, ...Object.keys(FOLDERS)].join(', ')}): it is not restored.`;
  return null;
}

const GZIP = Buffer.from([0x1f, 0x8b]);
const AGE_BINARY = Buffer.from('age-encryption.org/');
const AGE_ARMOR = Buffer.from('-----BEGIN AGE ENCRYPTED FILE-----');

/** The archive's gzip bytes: decrypted when it is an age file. */
async function gzipBytesOf(archive: string, identities: readonly string[]): Promise<Readable> {
  let head: Buffer;
  try {
    const handle = await open(archive, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new BackupError(`Could not read ${archive} (${(error as NodeJS.ErrnoException).code ?? error}).`);
  }
  const starts = (magic: Buffer) => head.subarray(0, magic.length).equals(magic);
  if (starts(GZIP)) return createReadStream(archive);
  const binary = starts(AGE_BINARY);
  if (!binary && !starts(AGE_ARMOR))
    throw new BackupError(`${archive} is not a backup of this site: it is neither a .tar.gz archive nor an age-encrypted one.`);
  if (identities.length === 0)
    throw new BackupError(`${archive} is encrypted: give the private key that opens it with --identity KEYFILE.`);
  const decrypter = new Decrypter();
  for (const identity of identities) decrypter.addIdentity(identity);
  let input: ReadableStream<Uint8Array>;
  if (binary) input = Readable.toWeb(createReadStream(archive)) as ReadableStream<Uint8Array>;
  else {
    try {
      input = new Blob([Buffer.from(armor.decode(await readFile(archive, 'utf8')))]).stream();
    } catch {
      throw new BackupError(`${archive} is cut short or damaged: its armored (text) encryption does not decode.`);
    }
  }
  try {
    return Readable.fromWeb((await decrypter.decrypt(input)) as unknown as NodeReadableStream<Uint8Array>);
  } catch (error) {
    if (/no identity matched/i.test(String(error)))
      throw new BackupError(`None of the private keys given with --identity opens ${archive}: it was encrypted to other public keys.`);
    throw new BackupError(`${archive} is cut short or damaged: its encryption header does not read (${(error as Error).message}).`);
  }
}

/** Past this, a manifest is not one of ours (ours is a few hundred bytes). */
const MANIFEST_MAX_BYTES = 64 * 1024;

/**
 * Reads the archive once, checking every entry before it is written, into `stage` (a private folder,
 * never the places the site uses): files 0600, folders 0700, whatever modes the archive names. The
 * first refusal stops the reading; nothing else of the archive is written.
 */
async function unpackChecked(archive: string, stage: string, identities: readonly string[]): Promise<BackupManifest> {
  const source = await gzipBytesOf(archive, identities);
  let refusal: string | null = null;
  let manifestText: string | null = null;
  let manifest: BackupManifest | null = null;
  let current: string | null = null;
  let entries = 0;
  const writes: Promise<void>[] = [];
  const sinks = new Set<Writable>();
  const parser = new tar.Parser({ strict: true, maxMetaEntrySize: MANIFEST_MAX_BYTES });
  const refuse = (sentence: string) => {
    refusal ??= sentence;
  };
  const readManifest = () => {
    if (manifest || manifestText === null) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifestText);
    } catch {
      return refuse(`${archive} has a ${MANIFEST_ENTRY} that is not JSON: it is not a backup of this site.`);
    }
    const result = manifestSchema.safeParse(parsed);
    if (!result.success) {
      const seen = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      return refuse(
        `${archive} has a ${MANIFEST_ENTRY} this site does not know (format ${JSON.stringify(seen.format ?? null)}, version ${JSON.stringify(seen.version ?? null)}): it is not restored.`,
      );
    }
    manifest = result.data;
  };
  parser.on('entry', (entry: tar.ReadEntry) => {
    if (refusal) return entry.resume();
    const first = entries === 0;
    entries += 1;
    if (!first) readManifest();
    current = entry.path;
    const refused = refusal ?? refusalOf(archive, entry, first);
    if (refused) {
      refuse(refused);
      entry.resume();
      parser.abort(new Error(refused));
      return;
    }
    const target = path.join(stage, ...entry.path.split('/').filter(Boolean));
    if (first) {
      let text = '';
      entry.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.length > MANIFEST_MAX_BYTES)
          refuse(`${archive} has a ${MANIFEST_ENTRY} far larger than any backup makes: it is not restored.`);
      });
      entry.on('end', () => {
        manifestText = text;
      });
      return;
    }
    try {
      if (entry.type === 'Directory') {
        mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
        entry.resume();
        return;
      }
      mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    } catch {
      refuse(`${archive} holds ${JSON.stringify(entry.path)} where it also holds a file: it is not restored.`);
      entry.resume();
      return;
    }
    const sink = createWriteStream(target, { mode: PRIVATE_FILE_MODE, flags: 'wx' });
    sinks.add(sink);
    const name = entry.path;
    writes.push(
      new Promise<void>((resolve) => {
        sink.on('close', () => {
          sinks.delete(sink);
          resolve();
        });
        sink.on('error', (error: NodeJS.ErrnoException) => {
          // Keep the archive flowing past this entry, so the refusal is reached rather than a stall.
          entry.unpipe(sink);
          entry.resume();
          refuse(
            error.code === 'EEXIST'
              ? `${archive} holds ${JSON.stringify(name)} twice: it is not restored.`
              : `Could not unpack ${JSON.stringify(name)} of ${archive} (${error.code ?? error.message}).`,
          );
        });
      }),
    );
    entry.pipe(sink);
  });
  let damage: string | null = null;
  parser.on('warn', (_code: string, message: string | Error) => {
    damage ??= String(message instanceof Error ? message.message : message);
  });
  parser.on('error', (error: Error) => {
    damage ??= error.message;
  });
  const parsed = new Promise<void>((resolve) => {
    parser.on('end', () => resolve());
    parser.on('close', () => resolve());
    parser.on('abort', () => resolve());
  });
  const cutShort = (detail: string) =>
    `${archive} is cut short or damaged: reading stopped ${current ? `inside ${JSON.stringify(current)}` : 'before its first entry'} (${detail}).`;
  try {
    const gunzip = createGunzip();
    const feed = pipeline(
      source,
      gunzip,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (refusal) return done();
          if (parser.write(chunk)) done();
          else parser.once('drain', () => done());
        },
        final(done) {
          parser.end();
          done();
        },
      }),
    );
    await feed;
    await parsed;
  } catch (error) {
    if (!refusal)
      refuse(
        cutShort(/unexpected end|invalid tag|final chunk|truncat/i.test(String(error)) ? 'it ends too soon' : (error as Error).message),
      );
  }
  if (!refusal && damage) refuse(/Truncated/i.test(damage) ? cutShort('it ends too soon') : cutShort(damage));
  // A file the archive ended inside of, or one after a refusal, is closed where it stopped (the stage goes anyway).
  if (refusal) for (const sink of sinks) sink.destroy();
  await Promise.allSettled(writes);
  if (!refusal) readManifest();
  if (refusal) throw new BackupError(refusal);
  if (!manifest) throw new BackupError(`${archive} holds no ${MANIFEST_ENTRY}: it is not a backup of this site.`);
  const found: BackupManifest = manifest;
  if (found.database && !(await exists(path.join(stage, DATABASE_ENTRY))))
    throw new BackupError(`${archive} is cut short: its ${MANIFEST_ENTRY} names a database but it holds no ${DATABASE_ENTRY}.`);
  return found;
}

async function isEmptyPlace(target: string): Promise<boolean> {
  try {
    const info = await stat(target);
    if (!info.isDirectory()) return false;
    return (await readdir(target)).length === 0;
  } catch {
    return true;
  }
}

type SiteProcess = { pid: number; command: string; holds: string };

async function commandOf(pid: number): Promise<string> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  const command = raw.split('\0').filter(Boolean).join(' ');
  return command.length > 120 ? `${command.slice(0, 117)}...` : command || 'unknown command';
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The processes using the site's data: any with the database file (or its -wal) open, found through
 * /proc (Linux; processes of other users are found when run as root), and the server named by the lock
 * file it writes at start, when that process is alive.
 */
async function processesUsing(places: StatePlaces): Promise<SiteProcess[]> {
  const found: SiteProcess[] = [];
  const databaseFile = databaseFileOf(places.databaseUrl);
  if (databaseFile) {
    const watched = new Set([databaseFile, `${databaseFile}-wal`]);
    const pids = await readdir('/proc').catch(() => [] as string[]);
    for (const pid of pids) {
      // This process's own handles are not the site (libSQL lets go of a closed file only when collected).
      if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      for (const fd of fds) {
        const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        if (!watched.has(target)) continue;
        // Named as the database, whichever of its files the process has open first.
        found.push({ pid: Number(pid), command: await commandOf(Number(pid)), holds: databaseFile });
        break;
      }
    }
  }
  const lockFile = serverLockFile(places);
  const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) && !found.some((known) => known.pid === pid))
    found.push({ pid, command: await commandOf(pid), holds: lockFile });
  return found;
}

type RestoreOptions = {
  /** Delete what is in the places first. */
  replace?: boolean;
  /** age private keys (AGE-SECRET-KEY-1…) for an encrypted archive. */
  identities?: readonly string[];
};

/**
 * Puts an archive back. Refuses while any process uses the data (the site, `npm run enquiries`), and
 * any archive holding something a backup does not (links, devices, paths outside its folders, an
 * unknown manifest) or cut short, naming the entry, before anything is written to the site's places.
 * Every place must be empty (no database file, empty or missing folders) unless `replace` is set, in
 * which case what is there is deleted first. What it writes is owner-only.
 */
export async function restoreBackup(archive: string, places: StatePlaces, options: RestoreOptions = {}): Promise<BackupManifest> {
  const databaseFile = localDatabaseFile(places.databaseUrl);
  const users = await processesUsing(places);
  if (users.length > 0)
    throw new BackupError(
      `The site's data is in use, so it is not restored into: ${users
        .map((user) => `process ${user.pid} (${user.command}) holds ${user.holds}`)
        .join('; ')}. Stop the site first (systemctl stop homecare), then restore.`,
    );

  const stage = await mkdtemp(path.join(tmpdir(), 'homecare-restore-'));
  try {
    const manifest = await unpackChecked(archive, stage, options.identities ?? []);
    if (manifest.database && !databaseFile)
      throw new BackupError('The archive holds a database but DATABASE_URL names a hosted one: restore it into a file: database.');
    const targets = [
      ...(manifest.database && databaseFile ? [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`] : []),
      ...Object.values(FOLDERS).map((place) => path.resolve(places[place])),
    ];
    const occupied: string[] = [];
    for (const target of targets) if (!(await isEmptyPlace(target))) occupied.push(target);
    if (occupied.length > 0 && !options.replace)
      throw new BackupError(`Not empty, so not restored into (add --replace to delete what is there first):\n  ${occupied.join('\n  ')}`);
    for (const target of occupied) await rm(target, { recursive: true, force: true });

    // The stage's files are 0600 and its folders 0700; copies keep those modes.
    const written: string[] = [];
    if (manifest.database && databaseFile) {
      await makePrivateDir(path.dirname(databaseFile));
      await cp(path.join(stage, DATABASE_ENTRY), databaseFile);
      written.push(databaseFile);
    }
    for (const [entry, place] of Object.entries(FOLDERS) as [FolderEntry, keyof StatePlaces][]) {
      const source = path.join(stage, entry);
      if (!(await exists(source))) continue;
      const target = path.resolve(places[place]);
      await makePrivateDir(target);
      await cp(source, target, { recursive: true });
      written.push(target);
    }
    // A folder that was there already (empty) keeps its own mode unless tightened here.
    await scanPrivatePlaces({ folders: written, files: [], trees: [] }, { tighten: true });
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
