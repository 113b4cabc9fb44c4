import 'server-only';
import { open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { config } from '@/server/base/config.mjs';
import { orm } from '@/server/base/db';
import { enquiries, enquiryPhotos } from '@/server/base/db-schema';
import { makePrivateDir, PRIVATE_FILE_MODE } from '@/server/base/private-files';

/** A photo ready to be stored: re-encoded, with the name the visitor's file had (for the company's e-mail). */
/** A photo as the intake hands it over: re-encoded to JPEG, its metadata gone. */
export type ProcessedPhoto = { bytes: Buffer; width: number; height: number; contentType: 'image/jpeg' };
export type PhotoToStore = ProcessedPhoto & { originalName: string };

export type StoredPhoto = {
  position: number;
  originalName: string;
  /** The enquiry's submission key: the folder its photos are in. */
  folder: string;
  fileName: string;
  bytes: number;
  width: number;
  height: number;
};

/**
 * The folder of every enquiry's photos (ENQUIRY_PHOTOS_DIR, default data/enquiry-photos): one folder per
 * enquiry, named by its submission key (a UUID the server made, never anything the visitor sent).
 * Never served: nothing under public/ and no route reads it.
 */
export const photosRoot = () => path.resolve(config().enquiries.photosDir);
const folderOf = (root: string, key: string) => {
  if (!/^[0-9a-f-]{36}$/.test(key)) throw new Error(`Not a submission key: ${key}`);
  return path.join(root, key);
};

/** `1.jpg`, `2.jpg` …: stored names never come from the visitor. */
export const storedFileName = (position: number) => `${position}.jpg`;

/** Where uploads wait while they are read and checked: inside the photos' folder, so on the same disk and budget. */
export const incomingDirOf = (root: string) => path.join(root, '.incoming');

/** Flushes a file's or a folder's contents (a folder: its entries) to the disk. */
async function flush(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeDurably(file: string, bytes: Buffer): Promise<void> {
  const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes an enquiry's photos into its folder before its rows are committed (see storeEnquiry), and
 * flushes the files, the folder and its parent to the disk first: after a power cut a committed row
 * never points at an empty or missing file.
 */
export async function writePhotoFiles(root: string, key: string, photos: readonly PhotoToStore[]): Promise<void> {
  const folder = folderOf(root, key);
  await rm(folder, { recursive: true, force: true });
  await makePrivateDir(folder);
  await Promise.all(photos.map((photo, index) => writeDurably(path.join(folder, storedFileName(index + 1)), photo.bytes)));
  await flush(folder);
  await flush(root);
}

/**
 * Writes photos added later into an enquiry's folder under the names given (never the visitor's),
 * flushed like writePhotoFiles; if one fails, those written by this call are removed again.
 */
export async function appendPhotoFiles(
  root: string,
  key: string,
  photos: readonly (PhotoToStore & { fileName: string })[],
): Promise<string[]> {
  const folder = folderOf(root, key);
  await makePrivateDir(folder);
  const files = photos.map((photo) => path.join(folder, photo.fileName));
  const written = await Promise.allSettled(photos.map((photo, index) => writeDurably(files[index]!, photo.bytes)));
  const failed = written.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await removeFiles(files.filter((_, index) => written[index]!.status === 'fulfilled'));
    throw failed.reason;
  }
  await flush(folder);
  await flush(root);
  return files;
}

export const removeFiles = (files: readonly string[]) => Promise.all(files.map((file) => rm(file, { force: true })));

/** Deletes these photo folders (retention, erasure, an enquiry that was not stored). */
export async function removePhotoFiles(root: string, keys: readonly (string | null)[]): Promise<void> {
  await Promise.all(keys.flatMap((key) => (key ? [rm(folderOf(root, key), { recursive: true, force: true })] : [])));
}

/** The photo folders of the enquiries a query selects (by id), read before those enquiries are deleted. */
export async function photoFoldersOf(db: Client, where: SQL): Promise<string[]> {
  const rows = await orm(db).select({ key: enquiries.submissionKey }).from(enquiries).where(where);
  return rows.flatMap((row) => (row.key ? [row.key] : []));
}

export async function photosOf(db: Client, enquiryId: number): Promise<StoredPhoto[]> {
  return orm(db)
    .select({
      position: enquiryPhotos.position,
      originalName: enquiryPhotos.originalName,
      folder: sql<string>`${enquiries.submissionKey}`,
      fileName: enquiryPhotos.fileName,
      bytes: enquiryPhotos.bytes,
      width: enquiryPhotos.width,
      height: enquiryPhotos.height,
    })
    .from(enquiryPhotos)
    .innerJoin(enquiries, eq(enquiries.id, enquiryPhotos.enquiryId))
    .where(eq(enquiryPhotos.enquiryId, enquiryId))
    .orderBy(asc(enquiryPhotos.position));
}

/** The bytes of an enquiry's photos, in order; `content` is null for a file no longer on the server. */
export async function readPhotos(root: string, photos: readonly StoredPhoto[]): Promise<(StoredPhoto & { content: Buffer | null })[]> {
  return Promise.all(
    photos.map(async (photo) => ({
      ...photo,
      content: await readFile(path.join(folderOf(root, photo.folder), photo.fileName)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      }),
    })),
  );
}

/** A folder this old with no enquiry pointing at it was left by a store that never committed. */
const ORPHAN_FOLDER_AGE_MS = 60 * 60_000;

/**
 * Deletes photo folders no enquiry points at (a process that died between writing the files and
 * committing the enquiry), once they are ORPHAN_FOLDER_AGE_MS old so an upload in progress is never
 * touched. Returns how many went.
 */
export async function removeOrphanPhotoFolders(db: Client, root: string, now: number = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && /^[0-9a-f-]{36}$/.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return 0;
  }
  if (names.length === 0) return 0;
  const known = new Set(
    (await orm(db).select({ key: enquiries.submissionKey }).from(enquiries).where(inArray(enquiries.submissionKey, names))).map(
      (row) => row.key,
    ),
  );
  let removed = 0;
  for (const name of names) {
    if (known.has(name)) continue;
    const folder = path.join(root, name);
    if (now - (await stat(folder)).mtimeMs < ORPHAN_FOLDER_AGE_MS) continue;
    await rm(folder, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
