import 'server-only';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { asc, eq } from 'drizzle-orm';
import { config } from '@/server/config.mjs';
import { orm } from '@/server/db';
import { enquiryPhotos } from '@/server/db-schema';
import type { ProcessedPhoto } from '@/server/enquiries/photo-processing';

/** A photo ready to be stored: re-encoded, with the name the visitor's file had (for the company's e-mail). */
export type PhotoToStore = ProcessedPhoto & { originalName: string };

export type StoredPhoto = { position: number; originalName: string; fileName: string; bytes: number; width: number; height: number };

/**
 * The folder of every enquiry's photos (ENQUIRY_PHOTOS_DIR, default data/enquiry-photos): one folder per
 * enquiry id. Never served: nothing under public/ and no route reads it.
 */
export const photosRoot = () => path.resolve(config().enquiries.photosDir);
const folderOf = (root: string, enquiryId: number) => path.join(root, String(enquiryId));

/** `1.jpg`, `2.jpg` …: stored names never come from the visitor. */
export const storedFileName = (position: number) => `${position}.jpg`;

/** Writes an enquiry's photos into its folder (before its rows are committed: see storeEnquiry). */
export async function writePhotoFiles(root: string, enquiryId: number, photos: readonly PhotoToStore[]): Promise<void> {
  const folder = folderOf(root, enquiryId);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  await Promise.all(photos.map((photo, index) => writeFile(path.join(folder, storedFileName(index + 1)), photo.bytes)));
}

/** Deletes the photo folders of these enquiries (retention, erasure, a store that rolled back). */
export async function removePhotoFiles(root: string, enquiryIds: readonly number[]): Promise<void> {
  await Promise.all(enquiryIds.map((id) => rm(folderOf(root, id), { recursive: true, force: true })));
}

export async function photosOf(db: Client, enquiryId: number): Promise<StoredPhoto[]> {
  return orm(db)
    .select({
      position: enquiryPhotos.position,
      originalName: enquiryPhotos.originalName,
      fileName: enquiryPhotos.fileName,
      bytes: enquiryPhotos.bytes,
      width: enquiryPhotos.width,
      height: enquiryPhotos.height,
    })
    .from(enquiryPhotos)
    .where(eq(enquiryPhotos.enquiryId, enquiryId))
    .orderBy(asc(enquiryPhotos.position));
}

/** The bytes of an enquiry's photos, in order. */
export async function readPhotos(
  root: string,
  enquiryId: number,
  photos: readonly StoredPhoto[],
): Promise<(StoredPhoto & { content: Buffer })[]> {
  return Promise.all(
    photos.map(async (photo) => ({ ...photo, content: await readFile(path.join(folderOf(root, enquiryId), photo.fileName)) })),
  );
}
