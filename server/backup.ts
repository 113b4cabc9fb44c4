import 'server-only';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import * as tar from 'tar';
import { config } from '@/server/config.mjs';
import { BUSY_TIMEOUT_MS } from '@/server/db';
import { incomingDirOf } from '@/server/enquiries/photo-store';

/**
 * One archive (.tar.gz) of everything the site keeps: the database as a consistent snapshot taken with
 * SQLite's `VACUUM INTO` (safe while the site is running and writing; never a file copy), the enquiry
 * photos, the built-in gallery's added items and the outbox's saved messages. Restored into an empty
 * state only, unless told to replace what is there.
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

export const BACKUP_FORMAT = 'homecare-backup';
const DATABASE_ENTRY = 'database/site.db';
const FOLDERS = { 'enquiry-photos': 'photosDir', gallery: 'galleryDir', outbox: 'outboxDir' } as const satisfies Record<
  string,
  keyof StatePlaces
>;

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** False for a hosted libSQL database, which the archive cannot hold. */
  database: boolean;
  enquiries: number | null;
  photos: number | null;
  files: Record<keyof typeof FOLDERS, number>;
};

export type BackupResult = { manifest: BackupManifest; notes: string[] };

export class BackupError extends Error {}

/** The database file of a `file:` URL, or null for a hosted (libsql://, https://) database. */
export function localDatabaseFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const file = url.slice('file:'.length);
  if (!file || file === ':memory:') throw new BackupError(`DATABASE_URL ${url} names no database file.`);
  return path.resolve(file);
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
  let count = 0;
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (full === skip) continue;
    count += entry.isDirectory() ? await countFiles(full, skip) : 1;
  }
  return count;
}

async function countRows(databaseFile: string) {
  const client = createClient({ url: `file:${databaseFile}` });
  try {
    const count = async (table: string) => Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
    return { enquiries: await count('enquiries'), photos: await count('enquiry_photos') };
  } finally {
    client.close();
  }
}

/** Writes the archive to `outFile` (through a temporary name, so a failed backup leaves no half archive). */
export async function createBackup(places: StatePlaces, outFile: string, now = new Date()): Promise<BackupResult> {
  const stage = await mkdtemp(path.join(tmpdir(), 'homecare-backup-'));
  const notes: string[] = [];
  try {
    const databaseFile = localDatabaseFile(places.databaseUrl);
    let rows = { enquiries: null as number | null, photos: null as number | null };
    if (databaseFile) {
      if (!(await exists(databaseFile))) throw new BackupError(`No database at ${databaseFile} (DATABASE_URL).`);
      await mkdir(path.join(stage, 'database'));
      const snapshot = path.join(stage, DATABASE_ENTRY);
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
    for (const [entry, place] of Object.entries(FOLDERS) as [keyof typeof FOLDERS, keyof StatePlaces][]) {
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
    await writeFile(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    const partial = `${outFile}.partial`;
    await mkdir(path.dirname(path.resolve(outFile)), { recursive: true });
    const incoming = path.join(stage, 'enquiry-photos', '.incoming');
    await tar.c(
      {
        gzip: true,
        file: partial,
        cwd: stage,
        follow: true,
        portable: true,
        // Uploads being read right now are not enquiries yet.
        filter: (entryPath) => !path.resolve(stage, entryPath).startsWith(incoming),
      },
      ['manifest.json', ...(databaseFile ? ['database'] : []), ...entries],
    );
    await rename(partial, outFile);
    return { manifest, notes };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
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

/**
 * Puts an archive back. Every place must be empty (no database file, empty or missing folders) unless
 * `replace` is set, in which case what is there is deleted first. Run it with the site stopped.
 */
export async function restoreBackup(archive: string, places: StatePlaces, options: { replace?: boolean } = {}): Promise<BackupManifest> {
  const stage = await mkdtemp(path.join(tmpdir(), 'homecare-restore-'));
  try {
    await tar.x({ file: archive, cwd: stage, strict: true });
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(await readFile(path.join(stage, 'manifest.json'), 'utf8')) as BackupManifest;
    } catch {
      throw new BackupError(`${archive} is not a backup of this site (no manifest.json).`);
    }
    if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1) throw new BackupError(`${archive} is not a backup of this site.`);

    const databaseFile = localDatabaseFile(places.databaseUrl);
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

    if (manifest.database && databaseFile) {
      await mkdir(path.dirname(databaseFile), { recursive: true });
      await cp(path.join(stage, DATABASE_ENTRY), databaseFile);
    }
    for (const [entry, place] of Object.entries(FOLDERS) as [keyof typeof FOLDERS, keyof StatePlaces][]) {
      const source = path.join(stage, entry);
      if (!(await exists(source))) continue;
      await mkdir(path.resolve(places[place]), { recursive: true });
      await cp(source, path.resolve(places[place]), { recursive: true });
    }
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
