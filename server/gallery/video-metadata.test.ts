import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locationTags, stripVideoMetadata } from '@/server/gallery/video-metadata';

const sample = path.join('media/gallery/samples/roof-timelapse-sample.mp4');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'homecare-video-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('videos added to the gallery lose where they were filmed', () => {
  it('an MP4 with GPS coordinates (as a phone writes them) is stored without them and still reads as a video', async () => {
    const clip = path.join(dir, 'clip.mp4');
    copyFileSync(sample, clip);
    execFileSync('exiftool', [
      '-quiet',
      '-overwrite_original',
      '-Keys:GPSCoordinates=55.9466, -3.9917, 80',
      '-UserData:GPSCoordinates=55.9466, -3.9917',
      clip,
    ]);
    expect(await locationTags(clip)).not.toEqual([]);
    expect(await stripVideoMetadata(clip, 'video/mp4')).toEqual({ ok: true });
    expect(await locationTags(clip)).toEqual([]);
    const info = JSON.parse(execFileSync('exiftool', ['-json', '-n', '-ImageWidth', '-Duration', clip]).toString()) as {
      ImageWidth?: number;
      Duration?: number;
    }[];
    expect(info[0]?.ImageWidth).toBeGreaterThan(0);
    expect(info[0]?.Duration).toBeGreaterThan(0);
  });
});
