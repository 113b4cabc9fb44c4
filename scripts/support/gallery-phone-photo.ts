// The phone photo the fake CRM (fake-crm.ts) serves and the gallery tests check, as a
// surveyor's phone takes it: 4032x3024 JPEG of about 5 MB, with EXIF that includes a GPS position (the
// customer's address). Drawn with sharp (smooth gradients and sensor-like noise, so it compresses like
// a photo, not like a flat test card), written once and reused.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { writeFileAtomic } from '../../server/base/write-file-atomic.mjs';

const PHONE_PHOTO_SIZE = { width: 4032, height: 3024 } as const;
// Not under data/test: the test build's data folder is emptied before each build, possibly while a unit
// test that reads this photo runs beside it.
const FILE = path.resolve('data/fixtures/phone-photo-4032x3024.jpg');

export async function phonePhoto(): Promise<Buffer> {
  if (existsSync(FILE)) return readFileSync(FILE);
  const { width, height } = PHONE_PHOTO_SIZE;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % 32;
      const at = (y * width + x) * 3;
      raw[at] = ((x * 255) / width + noise) & 255;
      raw[at + 1] = ((y * 255) / height + noise) & 255;
      raw[at + 2] = (((x + y) * 128) / width + noise) & 255;
    }
  }
  const photo = await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Surveyor Phone' },
      // IFD3 is the GPS directory: 55°56'30" N, 3°59' W, a street in Cumbernauld.
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '55/1 56/1 3000/100', GPSLongitudeRef: 'W', GPSLongitude: '3/1 59/1 0/1' },
    })
    .toBuffer();
  mkdirSync(path.dirname(FILE), { recursive: true });
  await writeFileAtomic(FILE, photo);
  return photo;
}

/** Whether image bytes carry any EXIF, and whether it has a GPS directory (tag 0x8825, either byte order). */
export async function exifOf(image: Buffer): Promise<{ exif: boolean; gps: boolean }> {
  const { exif } = await sharp(image).metadata();
  if (!exif) return { exif: false, gps: false };
  return { exif: true, gps: exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])) };
}
