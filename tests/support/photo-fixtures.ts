// Test files: phone photos (made in scripts/bench/support/phone-photos.ts, shared with the benchmarks),
// files that only pretend to be photos, and what exiftool finds in a file. No server-only imports, so
// plain tsx runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export { phonePhoto, withPhoneExif } from '../../scripts/bench/support/phone-photos';

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
