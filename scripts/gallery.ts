/**
 * `npm run gallery -- <command>`: manages the built-in gallery the site serves when no CRM is
 * configured. Items go to GALLERY_DIR (default data/gallery); see docs/gallery.md.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { config } from '@/server/base/config.mjs';
import { defaultGalleryStore, GalleryInputError, type StoredItem } from '@/server/gallery/store';

const usage = `Usage: npm run gallery -- <command>

  add <file> --title <text> --category <text> [--description <text>] [--tags <a,b,c>] [--poster <image>]
      Copy an image (.jpg .jpeg .png .webp .avif .gif) or video (.mp4 .m4v .webm .mov) into the gallery.
      Photos are stored at their display sizes without metadata (GPS included); the original is kept, never served.
      --poster: a still frame for a video, shown on phones instead of fetching the video.
  list [--json]
      Show every item: added ones first (newest first), then the shipped samples.
  remove <id> [<id> ...]
      Delete added items (and their files); hide shipped samples.
  remove --samples
      Hide every shipped sample.
  restore-samples
      Show the shipped samples again.

Items are stored in GALLERY_DIR (now: ${config().galleryDir}).`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function describe(item: StoredItem) {
  const media = item.s3Key ? `s3Key ${item.s3Key}` : item.imageUrl ? `imageUrl ${item.imageUrl}` : `filename ${item.filename} (no media)`;
  const state = item.hidden ? ' [removed sample]' : item.source === 'sample' ? ' [sample]' : '';
  return `${item._id}${state}\n    ${item.title} | ${item.category} | ${item.mimeType || 'unknown type'} | ${media}${item.tags.length ? `\n    tags: ${item.tags.join(', ')}` : ''}`;
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const store = defaultGalleryStore(config().galleryDir);
  switch (command) {
    case 'add': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          title: { type: 'string' },
          category: { type: 'string' },
          description: { type: 'string' },
          tags: { type: 'string' },
          poster: { type: 'string' },
        },
      });
      const [file, ...extra] = positionals;
      if (!file || extra.length > 0) fail('add needs exactly one file.');
      if (!values.title?.trim()) fail('add needs --title.');
      if (!values.category?.trim()) fail('add needs --category.');
      const tags = (values.tags ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
      const item = await store.addItem({
        file: path.resolve(file),
        title: values.title,
        category: values.category,
        description: values.description,
        tags,
        poster: values.poster === undefined ? undefined : path.resolve(values.poster),
      });
      if (item.mimeType.startsWith('video/') && !item.posterKey) {
        console.log('No --poster given: on phones the tile shows a plain frame with a play sign until the video is opened.');
      }
      console.log(`Added ${item._id}: "${item.title}" in ${item.category} (${item.mimeType}, key ${item.s3Key})`);
      return;
    }
    case 'list': {
      const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
      const items = await store.all();
      if (values.json) {
        console.log(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) console.log('The gallery is empty.');
      for (const item of items) console.log(describe(item));
      const shown = items.filter((item) => !item.hidden).length;
      console.log(`\n${shown} shown, ${items.length - shown} removed samples. Store: ${path.resolve(config().galleryDir)}`);
      return;
    }
    case 'remove': {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { samples: { type: 'boolean' } } });
      const ids = values.samples
        ? (await store.all()).filter((item) => item.source === 'sample' && !item.hidden).map((item) => item._id)
        : positionals;
      if (ids.length === 0)
        fail(values.samples ? 'No samples left to remove.' : 'remove needs at least one id (see `npm run gallery -- list`).');
      let missing = 0;
      for (const id of ids) {
        const outcome = await store.removeItem(id);
        if (outcome === 'not-found') missing += 1;
        console.log(
          outcome === 'removed'
            ? `Removed ${id}`
            : outcome === 'hidden'
              ? `Removed sample ${id} (restore with restore-samples)`
              : `No item ${id}`,
        );
      }
      if (missing > 0) process.exitCode = 1;
      return;
    }
    case 'restore-samples': {
      console.log(`Restored ${await store.restoreSamples()} samples.`);
      return;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(usage);
      return;
    default:
      fail(`Unknown command: ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof GalleryInputError || (error instanceof Error && error.name === 'TypeError' && 'code' in error)) {
    fail(error.message);
  }
  console.error(error);
  process.exit(1);
});
