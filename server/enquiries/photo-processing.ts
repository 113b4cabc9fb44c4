import 'server-only';
import sharp from 'sharp';
import { PHOTO_MAX_SIDE } from '@/lib/photo-rules';

/** What a file is, read from its first bytes: never its name or the type the browser declared. */
export type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff' | 'heic';

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** The format of an image file from its signature (the first 32 bytes are enough); null when it is none we know. */
export function identifyPhoto(head: Uint8Array): PhotoFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && ascii(head, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (head.length >= 6 && /^GIF8[79]a$/.test(ascii(head, 0, 6))) return 'gif';
  if (head.length >= 4 && (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*')) return 'tiff';
  // ISO base media (HEIF family): a 'ftyp' box whose major brand says what it holds.
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'heic';
  }
  return null;
}

/** The formats sharp decodes here (its libvips has no HEVC, so no HEIC: DESIGN.md). */
export const DECODABLE: readonly PhotoFormat[] = ['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff'];

/**
 * Pixels a photo may have before it is decoded: 100 MP (a 200 MP phone's full-size photo is beyond the
 * 10 MB cap anyway). A small file that claims more is a decompression bomb and is refused unread.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

export type ProcessedPhoto = { bytes: Buffer; width: number; height: number; contentType: 'image/jpeg' };

export class UnreadablePhoto extends Error {}

// One photo decoded at a time in this process, whatever the number of requests: a decode takes all of
// libvips' threads for a moment, and queued requests wait rather than multiply the memory in use.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Decodes a photo and writes it again as a JPEG, turned upright by its EXIF orientation, at most
 * PHOTO_MAX_SIDE px on its longest side, with no metadata at all (no EXIF, no GPS position of the
 * customer's home, no XMP, no ICC profile beyond sRGB conversion). Truncated or corrupt data throws
 * UnreadablePhoto.
 */
export function reencodePhoto(input: string | Buffer): Promise<ProcessedPhoto> {
  return oneAtATime(async () => {
    try {
      const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true, failOn: 'truncated' })
        .rotate()
        .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb')
        // libjpeg-turbo, not mozjpeg: mozjpeg's smaller files cost several times the CPU per photo.
        .jpeg({ quality: 82 })
        .toBuffer({ resolveWithObject: true });
      return { bytes: data, width: info.width, height: info.height, contentType: 'image/jpeg' };
    } catch (error) {
      throw new UnreadablePhoto(error instanceof Error ? error.message : String(error));
    }
  });
}
