import 'server-only';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { databaseFileOf } from '@/server/base/private-files';

/** Where the site keeps its state: DATABASE_URL and the three folders. */
export type StatePlaces = {
  databaseUrl: string;
  photosDir: string;
  galleryDir: string;
  outboxDir: string;
};

export const BACKUP_FORMAT = 'homecare-backup';
export const MANIFEST_ENTRY = 'manifest.json';
export const DATABASE_FOLDER = 'database';
export const DATABASE_ENTRY = `${DATABASE_FOLDER}/site.db`;
export const FOLDERS = { 'enquiry-photos': 'photosDir', gallery: 'galleryDir', outbox: 'outboxDir' } as const satisfies Record<
  string,
  keyof StatePlaces
>;
export type FolderEntry = keyof typeof FOLDERS;
export const isFolderEntry = (name: string): name is FolderEntry => Object.hasOwn(FOLDERS, name);

const count = z.number().int().nonnegative();
export const manifestSchema = z
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
export type BackupManifest = z.infer<typeof manifestSchema>;

/** A refusal or failure an operator can act on: its message is the whole story (no stack trace). */
export class BackupError extends Error {}

/** The database file of a `file:` URL, or null for a hosted (libsql://, https://) database. */
export function localDatabaseFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const file = databaseFileOf(url);
  if (!file) throw new BackupError(`DATABASE_URL ${url} names no database file.`);
  return file;
}

export const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  );
