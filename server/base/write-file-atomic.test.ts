import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic.mjs';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'homecare-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const target = () => path.join(dir, 'file.json');

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an existing one, leaving nothing else beside it', async () => {
    await writeFileAtomic(target(), 'first');
    expect(await readFile(target(), 'utf8')).toBe('first');
    await writeFileAtomic(target(), Buffer.from('second'));
    expect(await readFile(target(), 'utf8')).toBe('second');
    expect(await readdir(dir)).toEqual(['file.json']);
  });

  it('writes a stream whole, with the mode asked for whatever the umask', async () => {
    const previous = process.umask(0o000);
    try {
      await writeFileAtomic(target(), Readable.from(['a', 'b', 'c']), { mode: 0o600 });
    } finally {
      process.umask(previous);
    }
    expect(await readFile(target(), 'utf8')).toBe('abc');
    expect((await stat(target())).mode & 0o777).toBe(0o600);
  });

  it('lets a function make the file under the temporary name, which readers never see', async () => {
    const source = path.join(dir, 'source.bin');
    await writeFile(source, 'copied');
    let seen: string[] = [];
    await writeFileAtomic(target(), async (temporary) => {
      expect(path.dirname(temporary)).toBe(dir);
      await copyFile(source, temporary);
      seen = await readdir(dir);
    });
    expect(seen).not.toContain('file.json');
    expect(await readFile(target(), 'utf8')).toBe('copied');
    expect((await readdir(dir)).sort()).toEqual(['file.json', 'source.bin']);
  });

  it('on a failure keeps the old file as it was and removes the temporary one', async () => {
    await writeFileAtomic(target(), 'old');
    const failing = new Readable({
      read() {
        this.push('half of the ');
        this.destroy(new Error('the source broke'));
      },
    });
    await expect(writeFileAtomic(target(), failing)).rejects.toThrow('the source broke');
    await expect(
      writeFileAtomic(target(), async (temporary) => {
        await writeFile(temporary, 'partial');
        throw new Error('the encoder failed');
      }),
    ).rejects.toThrow('the encoder failed');
    expect(await readFile(target(), 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['file.json']);
  });

  it('writers racing for one file each land whole; one of them wins', async () => {
    const bodies = Array.from({ length: 20 }, (_, index) => `writer ${index} `.repeat(5000));
    await Promise.all(bodies.map((body) => writeFileAtomic(target(), body)));
    expect(bodies).toContain(await readFile(target(), 'utf8'));
    expect(await readdir(dir)).toEqual(['file.json']);
  });
});
