import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { createGalleryStore, GalleryInputError, type GalleryStore } from './store';

let dataDir: string;
let store: GalleryStore;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'gallery-store-'));
  store = createGalleryStore({ samplesDir: 'media/gallery', dataDir });
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the built-in gallery store (what `npm run gallery` drives)', () => {
  it('adds a file under a content-hashed key with its metadata, newest first', async () => {
    const item = await store.addItem({
      file: 'public/gallery/samples/kitchen-refit-sample.webp',
      title: ' New kitchen ',
      category: 'Kitchens',
      description: 'Fitted',
      tags: ['units'],
    });
    expect(item).toMatchObject({
      title: 'New kitchen',
      category: 'Kitchens',
      description: 'Fitted',
      tags: ['units'],
      mimeType: 'image/webp',
      filename: 'kitchen-refit-sample.webp',
    });
    expect(item.s3Key).toMatch(/^uploads\/kitchen-refit-sample-[0-9a-f]{10}\.webp$/);
    expect(existsSync(path.join(dataDir, 'media', item.s3Key ?? ''))).toBe(true);
    expect((await store.listPublic())[0]?._id).toBe(item._id);
    expect(await store.resolveMedia(item.s3Key ?? '')).toMatchObject({ contentType: 'image/webp' });
  });

  it('refuses unsupported types, missing files and files that are not what they claim', async () => {
    await expect(store.addItem({ file: 'package.json', title: 'x', category: 'y' })).rejects.toBeInstanceOf(GalleryInputError);
    await expect(store.addItem({ file: 'nothing-here.jpg', title: 'x', category: 'y' })).rejects.toThrow('No such file');
    const fake = path.join(dataDir, 'fake.jpg');
    writeFileSync(fake, '<svg onload="alert(1)"/>');
    await expect(store.addItem({ file: fake, title: 'x', category: 'y' })).rejects.toThrow('does not look like image/jpeg');
  });

  it('removes an added item and its file', async () => {
    const item = await store.addItem({ file: 'media/gallery/samples/slate-roof-sample.jpg', title: 'Roof', category: 'Roofing' });
    expect(await store.removeItem(item._id)).toBe('removed');
    expect(existsSync(path.join(dataDir, 'media', item.s3Key ?? ''))).toBe(false);
    expect((await store.listPublic()).some((listed) => listed._id === item._id)).toBe(false);
  });

  it('hides a sample (no longer listed or served) and restores it', async () => {
    expect(await store.removeItem('sample-hallway-floor')).toBe('hidden');
    expect((await store.listPublic()).some((item) => item._id === 'sample-hallway-floor')).toBe(false);
    expect(await store.resolveMedia('samples/hallway-floor-sample.webp')).toBeNull();
    expect(JSON.parse(readFileSync(path.join(dataDir, 'manifest.json'), 'utf8')).hidden).toEqual(['sample-hallway-floor']);
    expect(await store.restoreSamples()).toBe(1);
    expect(await store.resolveMedia('samples/hallway-floor-sample.webp')).not.toBeNull();
  });

  it('says not-found for an unknown id', async () => {
    expect(await store.removeItem('nope')).toBe('not-found');
  });

  it('reports a corrupt manifest plainly', async () => {
    writeFileSync(path.join(dataDir, 'manifest.json'), JSON.stringify({ version: 1, items: [{ _id: 'x' }] }));
    await expect(store.listPublic()).rejects.toThrow(/Invalid gallery manifest/);
  });

  it('loses no item when several adds run at once, in one process or in several', async () => {
    const files = [
      'media/gallery/samples/slate-roof-sample.jpg',
      'media/gallery/samples/garden-wall-sample.webp',
      'media/gallery/samples/hallway-floor-sample.webp',
    ];
    const added = await Promise.all(
      Array.from({ length: 9 }, (_, i) => store.addItem({ file: files[i % 3]!, title: `Job ${i}`, category: 'Roofing' })),
    );
    const runs = await Promise.all(
      [0, 1, 2].map((i) =>
        runToEnd(
          spawnTs('scripts/gallery.ts', ['add', files[i]!, '--title', `From process ${i}`, '--category', 'Roofing'], {
            GALLERY_DIR: dataDir,
          }),
        ),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(dataDir, 'manifest.json'), 'utf8')) as { items: { _id: string; title: string }[] };
    expect(manifest.items.map((item) => item.title).sort()).toEqual(
      [...added.map((item) => item.title), 'From process 0', 'From process 1', 'From process 2'].sort(),
    );
    // Nothing half-written or left behind: no temporary files, no lock.
    const leftovers = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? leftovers(path.join(dir, entry.name)) : [entry.name],
      );
    expect(leftovers(dataDir).filter((name) => name.endsWith('.tmp') || name === 'manifest.lock')).toEqual([]);
  }, 60_000);

  it('takes over a lock left by a crashed process', async () => {
    writeFileSync(path.join(dataDir, 'manifest.lock'), '12345\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(dataDir, 'manifest.lock'), old, old);
    await store.addItem({ file: 'media/gallery/samples/slate-roof-sample.jpg', title: 'After a crash', category: 'Roofing' });
    expect((await store.all()).some((item) => item.title === 'After a crash')).toBe(true);
  });
});
