import 'server-only';
import { realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { storedWidthFor } from '@/lib/gallery/responsive-image';
import { addGalleryItem, type GalleryItemInput } from './add-item';
import { displaySizeKey, storedFilesOf, type DisplayFormat } from './display-sizes';
import { isValidMediaKey } from './keys';
import type { ManifestItem } from './manifest';
import { readManifest, withManifestLock, writeManifest } from './manifest-file';
import { mediaTypeOf } from './media-types';

export { displaySizeKey } from './display-sizes';
export { GalleryInputError } from './input-error';

type GalleryStoreOptions = {
  /** Shipped, read-only: manifest.json plus the sample media its s3Keys name. */
  samplesDir: string;
  /** Writable (GALLERY_DIR): manifest.json plus media/ for items added with `npm run gallery`. */
  dataDir: string;
};

export type StoredItem = ManifestItem & { source: 'sample' | 'added'; hidden: boolean };

type ResolvedMedia = { filePath: string; size: number; modified: Date; contentType: string };

function isInside(root: string, candidate: string) {
  const relative = path.relative(root, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The contract shape: the item without the store's own bookkeeping. */
export function toPublicItem(item: ManifestItem) {
  const { createdAt: _createdAt, displayWidths: _displayWidths, posterKey, posterWidths: _posterWidths, ...rest } = item;
  return posterKey ? { ...rest, posterUrl: `/api/gallery/image/${encodeURIComponent(posterKey)}` } : rest;
}

/** Removes an added item (and its file when no other item uses it) or hides a sample; the caller holds the lock. */
async function removeFromManifest({ samplesDir, dataDir }: GalleryStoreOptions, id: string): Promise<'removed' | 'hidden' | 'not-found'> {
  const manifest = await readManifest(dataDir);
  const added = manifest.items.find((item) => item._id === id);
  if (added) {
    manifest.items = manifest.items.filter((item) => item._id !== id);
    await writeManifest(dataDir, manifest);
    if (!manifest.items.some((item) => item.s3Key === added.s3Key)) {
      for (const file of storedFilesOf(added)) await rm(path.join(dataDir, 'media', file), { force: true });
    }
    return 'removed';
  }
  const samples = await readManifest(samplesDir);
  if (samples.items.some((item) => item._id === id) && !manifest.hidden.includes(id)) {
    manifest.hidden.push(id);
    await writeManifest(dataDir, manifest);
    return 'hidden';
  }
  return 'not-found';
}

export function createGalleryStore(options: GalleryStoreOptions) {
  const samplesDir = path.resolve(options.samplesDir);
  const dataDir = path.resolve(options.dataDir);
  const dataMediaDir = path.join(dataDir, 'media');

  async function all(): Promise<StoredItem[]> {
    const [samples, data] = await Promise.all([readManifest(samplesDir), readManifest(dataDir)]);
    const hidden = new Set(data.hidden);
    const added = [...data.items].reverse().map((item): StoredItem => ({ ...item, source: 'added', hidden: false }));
    const shipped = samples.items.map((item): StoredItem => ({ ...item, source: 'sample', hidden: hidden.has(item._id) }));
    return [...added, ...shipped];
  }

  /** What GET /api/gallery/public lists: added items newest first, then the samples not removed. */
  async function listPublic(): Promise<ManifestItem[]> {
    return (await all()).filter((item) => !item.hidden).map(({ source: _source, hidden: _hidden, ...item }) => item);
  }

  /**
   * The file behind a listed item's s3Key; null for an invalid, unknown or missing key. For an image
   * added with its display sizes, the stored size for `width` (the widest when none is asked for): the
   * original, which may carry the photo's GPS position, is never served.
   */
  async function resolveMedia(key: string, want: { width?: number; format?: DisplayFormat } = {}): Promise<ResolvedMedia | null> {
    if (!isValidMediaKey(key)) return null;
    const items = (await all()).filter((candidate) => !candidate.hidden);
    const item = items.find((candidate) => candidate.s3Key === key);
    const posterOf = item ? undefined : items.find((candidate) => candidate.posterKey === key);
    if (!item && !posterOf) return null;
    const root = (item ?? posterOf)!.source === 'sample' ? samplesDir : dataMediaDir;
    const storedWidth = storedWidthFor((item ? item.displayWidths : posterOf!.posterWidths) ?? [], want.width);
    const fileKey = storedWidth === undefined ? key : displaySizeKey(key, storedWidth, want.format ?? 'fallback');
    const contentType = mediaTypeOf(fileKey);
    if (!contentType) return null;
    try {
      const [realRoot, realFile] = await Promise.all([realpath(root), realpath(path.join(root, fileKey))]);
      if (!isInside(realRoot, realFile)) return null;
      const info = await stat(realFile);
      if (!info.isFile()) return null;
      return { filePath: realFile, size: info.size, modified: info.mtime, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  const addItem = (input: GalleryItemInput): Promise<ManifestItem> => addGalleryItem(dataDir, input);

  /** Removes an added item (and its file when no other item uses it) or hides a sample. */
  function removeItem(id: string): Promise<'removed' | 'hidden' | 'not-found'> {
    return withManifestLock(dataDir, () => removeFromManifest({ samplesDir, dataDir }, id));
  }

  /** Brings back every removed sample. */
  function restoreSamples(): Promise<number> {
    return withManifestLock(dataDir, async () => {
      const manifest = await readManifest(dataDir);
      const count = manifest.hidden.length;
      manifest.hidden = [];
      await writeManifest(dataDir, manifest);
      return count;
    });
  }

  return { all, listPublic, resolveMedia, addItem, removeItem, restoreSamples, samplesDir, dataDir };
}

export type GalleryStore = ReturnType<typeof createGalleryStore>;

/** The site's store: shipped samples under media/gallery, added items under GALLERY_DIR. */
export function defaultGalleryStore(galleryDir: string): GalleryStore {
  return createGalleryStore({ samplesDir: path.join(process.cwd(), 'media', 'gallery'), dataDir: galleryDir });
}
