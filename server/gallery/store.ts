import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readFile, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { storedWidthFor, storedWidthsFor } from '@/lib/gallery/responsive-image';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';
import { isValidMediaKey, slugify } from './keys';
import { emptyManifest, manifestItemSchema, manifestSchema, type Manifest, type ManifestItem } from './manifest';
import { matchesSignature, mediaTypeOf } from './media-types';
import { stripVideoMetadata } from './video-metadata';

type GalleryStoreOptions = {
  /** Shipped, read-only: manifest.json plus the sample media its s3Keys name. */
  samplesDir: string;
  /** Writable (GALLERY_DIR): manifest.json plus media/ for items added with `npm run gallery`. */
  dataDir: string;
};

export type StoredItem = ManifestItem & { source: 'sample' | 'added'; hidden: boolean };

type ResolvedMedia = { filePath: string; size: number; modified: Date; contentType: string };

const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const MAX_POSTER_BYTES = 50 * 1024 * 1024;
const MANIFEST = 'manifest.json';

export class GalleryInputError extends Error {}

async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyManifest();
    throw error;
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(
      `Invalid gallery manifest ${path.join(dir, MANIFEST)}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

async function writeManifest(dir: string, manifest: Manifest) {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** A lock file older than this is a crashed holder's and is taken over. */
const STALE_LOCK_MS = 30_000;

/**
 * Runs `change` holding `dir`/manifest.lock (created with O_EXCL, so one holder at a time across
 * processes: two `npm run gallery add` at once both land). Waits up to 15 s for another holder.
 */
async function withManifestLock<T>(dir: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true });
  const lock = path.join(dir, 'manifest.lock');
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${lock} is held by another process; try again, or remove it if no gallery command is running`);
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
  }
  try {
    return await change();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Images stored at display sizes; GIFs may be animated and are kept as they are. */
const RESIZED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);
const DISPLAY_QUALITY = 75;

/**
 * Each size is stored as WebP, for the browsers that say they take it, and in the original's own format
 * (the `mimeType` the item lists), for any other client. For a WebP original the two are one file.
 */
type DisplayFormat = 'webp' | 'fallback';

function fallbackExtension(key: string): string {
  const extension = path.extname(key).toLowerCase();
  return extension === '.jpeg' ? '.jpg' : extension;
}

/** `uploads/roof-1a2b.jpg` at 640 → `uploads/roof-1a2b.w640.webp` (or `.w640.jpg`, the fallback). */
export function displaySizeKey(key: string, width: number, format: DisplayFormat = 'webp'): string {
  const stem = key.slice(0, key.length - path.extname(key).length);
  return `${stem}.w${width}${format === 'webp' ? '.webp' : fallbackExtension(key)}`;
}

/**
 * Decodes the photo once (turned upright by its EXIF orientation), writes it at each display width as
 * WebP with no metadata at all, and returns the widths written. A file that does not decode is refused.
 */
async function writeDisplaySizes(bytes: Buffer, file: string, mediaDir: string, key: string): Promise<number[]> {
  let upright: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  try {
    // 60 megapixels: any phone camera; a larger decode would take hundreds of MB of memory.
    upright = await sharp(bytes, { failOn: 'error', limitInputPixels: 60_000_000 }).rotate().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new GalleryInputError(
      `${path.basename(file)} could not be read as an image: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { width, height, channels } = upright.info;
  const widths = storedWidthsFor(width);
  const fallback = fallbackExtension(key);
  for (const displayWidth of widths) {
    const resized = sharp(upright.data, { raw: { width, height, channels } }).resize({
      width: Math.min(displayWidth, width),
      withoutEnlargement: true,
    });
    for (const format of fallback === '.webp' ? (['webp'] as const) : (['webp', 'fallback'] as const)) {
      const target = path.join(mediaDir, displaySizeKey(key, displayWidth, format));
      await mkdir(path.dirname(target), { recursive: true });
      const encoder = resized.clone();
      const extension = format === 'webp' ? '.webp' : fallback;
      if (extension === '.webp') encoder.webp({ quality: DISPLAY_QUALITY });
      else if (extension === '.png') encoder.png({ compressionLevel: 9 });
      else if (extension === '.avif') encoder.avif({ quality: 50 });
      else encoder.jpeg({ quality: DISPLAY_QUALITY, mozjpeg: true });
      await writeFileAtomic(target, (temporary) => encoder.toFile(temporary));
    }
  }
  return widths;
}

/** Copies a file into place whole: `prepare` may rewrite the copy before it appears under its name. */
async function copyIntoPlace(source: string, target: string, prepare?: (copy: string) => Promise<void>) {
  await mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, async (temporary) => {
    await copyFile(source, temporary);
    await prepare?.(temporary);
  });
}

function isInside(root: string, candidate: string) {
  const relative = path.relative(root, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The contract shape: the item without the store's own bookkeeping. */
export function toPublicItem(item: ManifestItem) {
  const { createdAt: _createdAt, displayWidths: _displayWidths, posterKey, posterWidths: _posterWidths, ...rest } = item;
  return posterKey ? { ...rest, posterUrl: `/api/gallery/image/${encodeURIComponent(posterKey)}` } : rest;
}

/** `uploads/survey-1a2b.mp4` → `uploads/survey-1a2b.poster.jpg`: where a video's still frame is stored. */
function posterKeyOf(videoKey: string): string {
  return `${videoKey.slice(0, videoKey.length - path.extname(videoKey).length)}.poster.jpg`;
}

/** Every file an added item wrote: the original, its display sizes, its poster's sizes. */
function storedFilesOf(item: ManifestItem): string[] {
  if (!item.s3Key || !isValidMediaKey(item.s3Key)) return [];
  const sizes = (key: string, widths: readonly number[]) =>
    widths.flatMap((width) => (['webp', 'fallback'] as const).map((format) => displaySizeKey(key, width, format)));
  return [
    item.s3Key,
    ...sizes(item.s3Key, item.displayWidths ?? []),
    ...(item.posterKey && isValidMediaKey(item.posterKey) ? sizes(item.posterKey, item.posterWidths ?? []) : []),
  ];
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

  async function addItem(input: {
    file: string;
    title: string;
    category: string;
    description?: string;
    tags?: string[];
    /** A video's still frame (an image file), shown on the tile where there is no hover to play it. */
    poster?: string;
  }): Promise<ManifestItem> {
    const contentType = mediaTypeOf(input.file);
    if (!contentType) {
      throw new GalleryInputError(
        `Unsupported file type: ${path.basename(input.file)} (use .jpg, .jpeg, .png, .webp, .avif, .gif, .mp4, .m4v, .webm or .mov)`,
      );
    }
    if (input.poster !== undefined && !contentType.startsWith('video/')) throw new GalleryInputError('--poster is for videos only');
    const info = await stat(input.file).catch(() => null);
    if (!info?.isFile()) throw new GalleryInputError(`No such file: ${input.file}`);
    if (info.size === 0 || info.size > MAX_UPLOAD_BYTES)
      throw new GalleryInputError(`The file must hold between 1 byte and ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
    const handle = await open(input.file, 'r');
    const head = new Uint8Array(16);
    try {
      await handle.read(head, 0, 16, 0);
    } finally {
      await handle.close();
    }
    if (!matchesSignature(head, contentType)) throw new GalleryInputError(`${path.basename(input.file)} does not look like ${contentType}`);

    const bytes = await readFile(input.file);
    const digest = createHash('sha256').update(bytes).digest('hex');
    const extension = path.extname(input.file).toLowerCase();
    const base = slugify(path.basename(input.file, path.extname(input.file)));
    const key = `uploads/${base}-${digest.slice(0, 10)}${extension}`;
    // Photos are served only at their display sizes, re-encoded without metadata (decision 0009).
    const displayWidths = RESIZED_TYPES.has(contentType) ? await writeDisplaySizes(bytes, input.file, dataMediaDir, key) : undefined;
    let poster: { posterKey: string; posterWidths: number[] } | undefined;
    if (input.poster !== undefined) {
      const posterKey = posterKeyOf(key);
      const posterBytes = await readFile(input.poster).catch(() => {
        throw new GalleryInputError(`No such file: ${input.poster}`);
      });
      if (posterBytes.length > MAX_POSTER_BYTES)
        throw new GalleryInputError(`The poster must be at most ${MAX_POSTER_BYTES / 1024 / 1024} MB`);
      poster = { posterKey, posterWidths: await writeDisplaySizes(posterBytes, input.poster, dataMediaDir, posterKey) };
    }
    const item = manifestItemSchema.parse({
      _id: `item-${randomBytes(6).toString('hex')}`,
      title: input.title,
      category: input.category,
      description: input.description ?? '',
      tags: input.tags ?? [],
      mimeType: contentType,
      s3Key: key,
      filename: path.basename(input.file),
      createdAt: new Date().toISOString(),
      ...(displayWidths ? { displayWidths } : {}),
      ...poster,
    });

    // The original is kept beside its sizes (for re-processing), never served. A video is served as it
    // is stored, so it is stored without its metadata (where it was filmed).
    await copyIntoPlace(input.file, path.join(dataMediaDir, key), async (copy) => {
      if (!contentType.startsWith('video/')) return;
      const stripped = await stripVideoMetadata(copy, contentType);
      if (!stripped.ok) throw new GalleryInputError(`${path.basename(input.file)} was not added: ${stripped.reason}`);
    });
    await withManifestLock(dataDir, async () => {
      const manifest = await readManifest(dataDir);
      manifest.items.push(item);
      await writeManifest(dataDir, manifest);
    });
    return item;
  }

  /** Removes an added item (and its file when no other item uses it) or hides a sample. */
  function removeItem(id: string): Promise<'removed' | 'hidden' | 'not-found'> {
    return withManifestLock(dataDir, () => removeItemLocked(id));
  }

  async function removeItemLocked(id: string): Promise<'removed' | 'hidden' | 'not-found'> {
    const manifest = await readManifest(dataDir);
    const added = manifest.items.find((item) => item._id === id);
    if (added) {
      manifest.items = manifest.items.filter((item) => item._id !== id);
      await writeManifest(dataDir, manifest);
      if (!manifest.items.some((item) => item.s3Key === added.s3Key)) {
        for (const file of storedFilesOf(added)) await rm(path.join(dataMediaDir, file), { force: true });
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
