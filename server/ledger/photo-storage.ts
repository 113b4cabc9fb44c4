import 'server-only';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { sum } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import { enquiryPhotos } from '@/server/base/db-schema';

type PhotoStorageLimits = {
  /** The stored photos' total at most (ENQUIRY_PHOTOS_MAX_MB). */
  maxBytes: number;
  /** Free space always left on the photos' disk (ENQUIRY_PHOTOS_MIN_FREE_MB). */
  minFreeBytes: number;
};

export type PhotoStorage = {
  /** 'full': past the budget; 'low-disk': the disk is below its floor. Either way no photo is kept. */
  state: 'ok' | 'full' | 'low-disk';
  usedBytes: number;
  freeBytes: number;
  maxBytes: number;
  minFreeBytes: number;
};

/** Free bytes for an unprivileged writer on the disk that holds `folder` (or its nearest existing parent). */
async function freeBytesAt(folder: string): Promise<number> {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    try {
      const disk = await statfs(current);
      return disk.bavail * disk.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(current) === current) throw error;
    }
  }
}

/**
 * Whether photos can be kept: their stored total (from the database, so it costs one query, not a walk
 * of the folder) is under the budget and the disk keeps its floor. Checked before an upload is written.
 */
export async function photoStorageState(db: Client, root: string, limits: PhotoStorageLimits): Promise<PhotoStorage> {
  const [[stored], freeBytes] = await Promise.all([
    orm(db)
      .select({ bytes: sum(enquiryPhotos.bytes).mapWith(Number) })
      .from(enquiryPhotos),
    freeBytesAt(root),
  ]);
  const usedBytes = stored?.bytes ?? 0;
  const state = usedBytes >= limits.maxBytes ? 'full' : freeBytes < limits.minFreeBytes ? 'low-disk' : 'ok';
  return { state, usedBytes, freeBytes, ...limits };
}
