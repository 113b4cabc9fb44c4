import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';
import { RESIZED_TYPES, writeDisplaySizes } from './display-sizes';
import { GalleryInputError } from './input-error';
import { slugify } from './keys';
import { manifestItemSchema, type ManifestItem } from './manifest';
import { readManifest, withManifestLock, writeManifest } from './manifest-file';
import { matchesSignature, mediaTypeOf } from './media-types';
import { stripVideoMetadata } from './video-metadata';

const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const MAX_POSTER_BYTES = 50 * 1024 * 1024;

export type GalleryItemInput = {
  file: string;
  title: string;
  category: string;
  description?: string;
  tags?: string[];
  /** A video's still frame (an image file), shown on the tile where there is no hover to play it. */
  poster?: string;
};

/** Copies a file into place whole: `prepare` may rewrite the copy before it appears under its name. */
async function copyIntoPlace(source: string, target: string, prepare?: (copy: string) => Promise<void>) {
  await mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, async (temporary) => {
    await copyFile(source, temporary);
    await prepare?.(temporary);
  });
}

/** `uploads/survey-1a2b.mp4` → `uploads/survey-1a2b.poster.jpg`: where a video's still frame is stored. */
function posterKeyOf(videoKey: string): string {
  return `${videoKey.slice(0, videoKey.length - path.extname(videoKey).length)}.poster.jpg`;
}

/** The file's media type, once its name, size and first bytes agree with it; refused otherwise. */
async function checkedMediaType(input: GalleryItemInput): Promise<string> {
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
  return contentType;
}

/** A video's poster written at its display sizes beside the video's key. */
async function storePoster(poster: string, mediaDir: string, key: string): Promise<{ posterKey: string; posterWidths: number[] }> {
  const posterKey = posterKeyOf(key);
  const posterBytes = await readFile(poster).catch(() => {
    throw new GalleryInputError(`No such file: ${poster}`);
  });
  if (posterBytes.length > MAX_POSTER_BYTES) throw new GalleryInputError(`The poster must be at most ${MAX_POSTER_BYTES / 1024 / 1024} MB`);
  return { posterKey, posterWidths: await writeDisplaySizes(posterBytes, poster, mediaDir, posterKey) };
}

/** `npm run gallery add`: checks the file, stores it (and its sizes and poster) under `dataDir`/media and lists it. */
export async function addGalleryItem(dataDir: string, input: GalleryItemInput): Promise<ManifestItem> {
  const dataMediaDir = path.join(dataDir, 'media');
  const contentType = await checkedMediaType(input);
  const bytes = await readFile(input.file);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const extension = path.extname(input.file).toLowerCase();
  const base = slugify(path.basename(input.file, path.extname(input.file)));
  const key = `uploads/${base}-${digest.slice(0, 10)}${extension}`;
  // Photos are served only at their display sizes, re-encoded without metadata (decision 0009).
  const displayWidths = RESIZED_TYPES.has(contentType) ? await writeDisplaySizes(bytes, input.file, dataMediaDir, key) : undefined;
  const poster = input.poster !== undefined ? await storePoster(input.poster, dataMediaDir, key) : undefined;
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
