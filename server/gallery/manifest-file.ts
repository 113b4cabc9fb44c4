import 'server-only';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '@/server/base/write-file-atomic.mjs';
import { emptyManifest, manifestSchema, type Manifest } from './manifest';

const MANIFEST = 'manifest.json';

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyManifest();
    throw error;
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(
      `Invalid gallery manifest ${path.join(dir, MANIFEST)}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

export async function writeManifest(dir: string, manifest: Manifest) {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** A lock file older than this is a crashed holder's and is taken over. */
const STALE_LOCK_MS = 30_000;

/**
 * Runs `change` holding `dir`/manifest.lock (created with O_EXCL, so one holder at a time across
 * processes: two `npm run gallery add` at once both land). Waits up to 15 s for another holder.
 */
export async function withManifestLock<T>(dir: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true });
  const lock = path.join(dir, 'manifest.lock');
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${lock} is held by another process; try again, or remove it if no gallery command is running`);
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
  }
  try {
    return await change();
  } finally {
    await rm(lock, { force: true });
  }
}
