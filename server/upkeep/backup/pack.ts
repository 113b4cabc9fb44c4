import 'server-only';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createClient } from '@libsql/client';
import { Encrypter } from 'age-encryption';
import * as tar from 'tar';
import { BUSY_TIMEOUT_MS } from '@/server/base/db';
import { makePrivateDir, PRIVATE_FILE_MODE } from '@/server/base/private-files';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';
import { incomingDirOf } from '@/server/ledger/photo-store';
import { checkRecipients } from './keys';
import {
  BACKUP_FORMAT,
  BackupError,
  DATABASE_ENTRY,
  DATABASE_FOLDER,
  exists,
  FOLDERS,
  localDatabaseFile,
  MANIFEST_ENTRY,
  type BackupManifest,
  type FolderEntry,
  type StatePlaces,
} from './format';

type BackupResult = { manifest: BackupManifest; notes: string[] };

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
