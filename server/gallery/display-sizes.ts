import 'server-only';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { storedWidthsFor } from '@/lib/gallery/responsive-image';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';
import { GalleryInputError } from './input-error';
import { isValidMediaKey } from './keys';
import type { ManifestItem } from './manifest';

/** Images stored at display sizes; GIFs may be animated and are kept as they are. */
export const RESIZED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif']);
const DISPLAY_QUALITY = 75;

/**
 * Each size is stored as WebP, for the browsers that say they take it, and in the original's own format
 * (the `mimeType` the item lists), for any other client. For a WebP original the two are one file.
 */
export type DisplayFormat = 'webp' | 'fallback';

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
export async function writeDisplaySizes(bytes: Buffer, file: string, mediaDir: string, key: string): Promise<number[]> {
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

/** Every file an added item wrote: the original, its display sizes, its poster's sizes. */
export function storedFilesOf(item: ManifestItem): string[] {
  if (!item.s3Key || !isValidMediaKey(item.s3Key)) return [];
  const sizes = (key: string, widths: readonly number[]) =>
    widths.flatMap((width) => (['webp', 'fallback'] as const).map((format) => displaySizeKey(key, width, format)));
  return [
    item.s3Key,
    ...sizes(item.s3Key, item.displayWidths ?? []),
    ...(item.posterKey && isValidMediaKey(item.posterKey) ? sizes(item.posterKey, item.posterWidths ?? []) : []),
  ];
}
