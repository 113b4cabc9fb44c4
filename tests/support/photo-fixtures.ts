// Photos as phones send them, for the tests and the contact benchmark: full-size (4032x3024), several MB,
// and with the GPS position a phone writes into EXIF (by exiftool, from Debian's libimage-exiftool-perl,
// which scripts/test/ensure-apt-tools.sh installs). No server-only imports, so plain tsx runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** A 4032x3024 JPEG of coloured noise over a gradient: it compresses like a photo (3-6 MB), not like a flat test card. */
export async function phonePhoto(seed = 1, size: { width: number; height: number } = { width: 4032, height: 3024 }): Promise<Buffer> {
  const { width, height } = size;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  for (let index = 0; index < pixels.length; index += 3) {
    state = (state * 1103515245 + 12345) >>> 0;
    const x = (index / 3) % width;
    const noise = state >>> 24;
    pixels[index] = (x * 255) / width / 2 + noise / 2;
    pixels[index + 1] = noise;
    pixels[index + 2] = 255 - noise / 2;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The GPS position a phone would record at a customer's home (here: Cumbernauld town centre). */
export const HOME_POSITION = { latitude: 55.9466, longitude: -3.9917 };

/** The photo with EXIF as a phone writes it: camera make and model, date, orientation and GPS. */
export function withPhoneExif(jpeg: Buffer): Buffer {
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-exif-'));
  try {
    const file = path.join(folder, 'photo.jpg');
    writeFileSync(file, jpeg);
    execFileSync('exiftool', [
      '-q',
      '-overwrite_original',
      '-Make=Apple',
      '-Model=iPhone 15',
      '-DateTimeOriginal=2026:11:14 09:30:00',
      `-GPSLatitude=${HOME_POSITION.latitude}`,
      '-GPSLatitudeRef=N',
      `-GPSLongitude=${Math.abs(HOME_POSITION.longitude)}`,
      '-GPSLongitudeRef=W',
      '-XMP-dc:Creator=Jo Bloggs',
      file,
    ]);
    return readFileSync(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Every metadata tag exiftool finds in a file, as `Group:Tag` names (file-system and composite tags left out). */
export function metadataTags(bytes: Buffer): string[] {
  const folder = mkdtempSync(path.join(tmpdir(), 'homecare-exif-'));
  try {
    const file = path.join(folder, 'photo.jpg');
    writeFileSync(file, bytes);
    const json = JSON.parse(execFileSync('exiftool', ['-json', '-G0', '-a', file], { encoding: 'utf8' })) as Record<string, unknown>[];
    return Object.keys(json[0] ?? {}).filter((tag) => !/^(?:SourceFile|ExifTool:|File:|Composite:)/.test(tag));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A PDF's first bytes under a photo's name. */
export const pdfBytes = () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** An HEIC file's signature: an ISO-BMFF 'ftyp' box with the 'heic' brand, as an iPhone writes it. */
export const heicBytes = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypheic'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic'),
    Buffer.alloc(64),
  ]);
