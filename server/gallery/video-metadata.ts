import 'server-only';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A tag that says where a video was taken (QuickTime's GPSCoordinates, ©xyz, XMP's location, Android's location). */
const LOCATION_TAG = /gps|location|©xyz/i;

/** The tags exiftool reads from a file, as `Group:Name` → value. */
async function readTags(file: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('exiftool', ['-json', '-a', '-G1', '-n', file], { maxBuffer: 16 * 1024 * 1024 });
  const [tags] = JSON.parse(stdout) as Record<string, unknown>[];
  return tags ?? {};
}

/** The location tags a video still holds (empty when none). */
export async function locationTags(file: string): Promise<string[]> {
  return Object.keys(await readTags(file)).filter((name) => LOCATION_TAG.test(name));
}

type VideoMetadataResult = { ok: true } | { ok: false; reason: string };

/**
 * Removes a video's metadata in place before it is published byte for byte: a phone's clip says where
 * it was filmed (a customer's home). MP4, M4V and MOV are rewritten by exiftool (`-all=`: the location,
 * the camera, the dates; the picture and sound are untouched). exiftool cannot write WebM, so a WebM is
 * refused when it holds a location. Without exiftool (`apt-get install libimage-exiftool-perl`) no
 * video is added.
 */
export async function stripVideoMetadata(file: string, contentType: string): Promise<VideoMetadataResult> {
  try {
    if (contentType !== 'video/webm') await run('exiftool', ['-quiet', '-all=', '-overwrite_original', file]);
    const left = await locationTags(file);
    if (left.length > 0)
      return {
        ok: false,
        reason: `the video holds where it was filmed (${left.join(', ')}) and that cannot be removed from a ${contentType} file; export it as MP4 without location`,
      };
    return { ok: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: false, reason: 'exiftool is needed to remove where a video was filmed: apt-get install libimage-exiftool-perl' };
    return {
      ok: false,
      reason: `its metadata could not be removed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
}
