import 'server-only';
import sharp, { type Metadata } from 'sharp';
import { PHOTO_MAX_SIDE } from '@/lib/enquiry-rules.mjs';
import type { ProcessedPhoto } from '@/server/ledger/photo-store';

/** What a file is, read from its first bytes: never its name or the type the browser declared. */
type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff' | 'heic';

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

/**
 * The formats the server opens: what phones' cameras and browsers send (a camera's JPEG, a
 * screenshot's PNG, a browser's WebP). GIF, AVIF and TIFF are refused unread: no camera needs them,
 * and their decoders cost far more memory for their size (a 2 KB AVIF can declare 100 megapixels).
 */
const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp'] as const;
type AcceptedFormat = (typeof ACCEPTED_FORMATS)[number];
export const isAcceptedFormat = (format: PhotoFormat | null): format is AcceptedFormat =>
  (ACCEPTED_FORMATS as readonly (PhotoFormat | null)[]).includes(format);

/**
 * Pixels a photo may declare in its header, judged before any decoding. A baseline JPEG is decoded
 * already reduced (libjpeg scales while decoding) and a WebP row by row, so 50 MP (a 50 MP phone's
 * full-size photo; larger sensors save binned 12-50 MP files) costs about 50 MB. A progressive JPEG or
 * a PNG is held whole while it decodes (a 16-bit interlaced PNG 8 bytes a pixel): 24 MP keeps the worst
 * of them near 260 MB (measured on these machines: decision 0011).
 */
const PIXEL_BUDGET = { streamed: 50_000_000, heldWhole: 24_000_000 } as const;

type PhotoHeader = { format: AcceptedFormat; width: number; height: number; pixelBudget: number };

/** Why a photo is refused before decoding. */
type HeaderRefusal = 'unreadable' | 'too-many-pixels';

/**
 * Reads a photo's header (never its pixels) and checks its declared size against its pixel budget.
 * The format is the one its first bytes gave; a header that disagrees is unreadable.
 */
export async function inspectPhoto(
  file: string | Buffer,
  format: AcceptedFormat,
): Promise<{ ok: true; header: PhotoHeader } | { ok: false; refusal: HeaderRefusal }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, refusal: 'unreadable' };
  }
  const { width, height } = metadata;
  if (metadata.format !== format || !width || !height) return { ok: false, refusal: 'unreadable' };
  const heldWhole = format === 'png' || (format === 'jpeg' && metadata.isProgressive === true);
  const pixelBudget = heldWhole ? PIXEL_BUDGET.heldWhole : PIXEL_BUDGET.streamed;
  if (width * height > pixelBudget) return { ok: false, refusal: 'too-many-pixels' };
  return { ok: true, header: { format, width, height, pixelBudget } };
}

export class UnreadablePhoto extends Error {}

// libvips' operation cache would keep each decoded photo resident (measured: four 24 MP progressive
// JPEGs one after another left 834 MB resident with it, 284 MB without); no photo is decoded twice.
sharp.cache(false);

// One photo decoded at a time in this process, whatever the number of requests: a decode takes all of
// libvips' threads for a moment, and queued requests wait rather than multiply the memory in use.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Decodes a photo (its header checked by inspectPhoto first) and writes it again as a JPEG, turned upright by its EXIF orientation, at most
 * PHOTO_MAX_SIDE px on its longest side, with no metadata at all (no EXIF, no GPS position of the
 * customer's home, no XMP, no ICC profile beyond sRGB conversion). Truncated or corrupt data throws
 * UnreadablePhoto.
 */
export function reencodePhoto(input: string | Buffer, pixelBudget: number = PIXEL_BUDGET.heldWhole): Promise<ProcessedPhoto> {
  return oneAtATime(async () => {
    try {
      // The budget again as libvips' own limit, in case a file's later frames say otherwise.
      const { data, info } = await sharp(input, { limitInputPixels: pixelBudget, sequentialRead: true, failOn: 'truncated' })
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
