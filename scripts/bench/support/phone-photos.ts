// Photos as phones send them, for the benchmarks and the tests: full-size (4032x3024), several MB, and
// with the GPS position a phone writes into EXIF (by exiftool, from Debian's libimage-exiftool-perl,
// which scripts/test/ensure-apt-tools.sh installs). Kept beside the benchmarks so they need nothing from
// tests/; tests/support/photo-fixtures.ts re-exports it. No server-only imports, so plain tsx runs it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

// Drawing and encoding a full-size photo costs a second of CPU, and the tests ask for the same few
// photos hundreds of times across their processes: each is drawn once per sharp version and kept.
const photoCache = path.join(process.cwd(), 'node_modules', '.cache', 'homecare-phone-photos');

/** A 4032x3024 JPEG of coloured noise over a gradient: it compresses like a photo (3-6 MB), not like a flat test card. */
export async function phonePhoto(seed = 1, size: { width: number; height: number } = { width: 4032, height: 3024 }): Promise<Buffer> {
  const file = path.join(photoCache, `${sharp.versions.sharp}-${sharp.versions.vips}-${seed}-${size.width}x${size.height}.jpg`);
  try {
    return readFileSync(file);
  } catch {
    const photo = await drawPhonePhoto(seed, size);
    mkdirSync(photoCache, { recursive: true });
    // Written aside and renamed, so a process reading it beside this one never sees half a photo.
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, photo);
    renameSync(partial, file);
    return photo;
  }
}

async function drawPhonePhoto(seed: number, size: { width: number; height: number }): Promise<Buffer> {
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
const HOME_POSITION = { latitude: 55.9466, longitude: -3.9917 };

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
