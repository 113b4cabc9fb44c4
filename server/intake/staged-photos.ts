import 'server-only';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PHOTO_MAX_COUNT, STAGED_PHOTOS } from '@/lib/enquiry-rules.mjs';
import { isEnquiryKey } from '@/lib/enquiry-key';
import { PRIVATE_DIR_MODE } from '@/server/base/private-files';
import type { ReceivedPhoto } from '@/server/intake/photo-intake';

/**
 * Photos sent ahead of their claim, one request each, by the service worker of a phone that kept the
 * claim with no signal (lib/offline/service-worker.ts): so no single request on a weak signal has to
 * carry them all, and the claim still arrives as one enquiry with one notification carrying every photo.
 * Each is kept under the claim's enquiry key, named by the hash of its bytes (sent twice, kept once),
 * until the claim takes them (then they go through the photo intake like any upload) or for
 * STAGED_PHOTOS.lifetimeMs. They live under the incoming folder, which start-up empties: a phone whose
 * claim finds its photos gone sends them again. Bounded: PHOTO_MAX_COUNT per claim,
 * STAGED_PHOTOS.perClientBytes from one client at once and STAGED_PHOTOS.maxBytes in all (the client's
 * hourly budget is the caller's).
 */
export type StagedPhotoId = string;
export type StageResult = { kind: 'staged'; id: StagedPhotoId } | { kind: 'too-many' } | { kind: 'no-room' };

const ID = /^[A-Za-z0-9_-]{43}$/;
export const isStagedPhotoId = (value: string): value is StagedPhotoId => ID.test(value);

/** `client`: the client's budget key (its address, or its /64), whose share of the space the photo takes. */
type Meta = { name: string; bytes: number; stagedAt: number; client?: string };

async function hashOf(file: string): Promise<StagedPhotoId> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('base64url');
}

async function headOf(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, 64, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function createStagedPhotos({ folder, now = Date.now }: { folder: () => string; now?: () => number }) {
  const dirOf = (key: string) => {
    if (!isEnquiryKey(key)) throw new Error('not an enquiry key');
    return path.join(folder(), key);
  };

  /** Every claim's staged photos, the expired ones removed: what remains takes `bytes`, `client`'s own `clientBytes`. */
  async function sweep(client: string): Promise<{ bytes: number; clientBytes: number }> {
    let bytes = 0;
    let clientBytes = 0;
    const keys = await readdir(folder()).catch(() => [] as string[]);
    for (const key of keys) {
      const dir = path.join(folder(), key);
      const metas = await metasIn(dir);
      const fresh = metas.filter(({ meta }) => now() - meta.stagedAt <= STAGED_PHOTOS.lifetimeMs);
      if (fresh.length === 0) await rm(dir, { recursive: true, force: true });
      else for (const { id } of metas.filter((entry) => !fresh.includes(entry))) await removeOne(dir, id);
      bytes += fresh.reduce((total, { meta }) => total + meta.bytes, 0);
      clientBytes += fresh.reduce((total, { meta }) => total + (meta.client === client ? meta.bytes : 0), 0);
    }
    return { bytes, clientBytes };
  }

  async function metasIn(dir: string): Promise<{ id: string; meta: Meta }[]> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const found: { id: string; meta: Meta }[] = [];
    for (const name of names.filter((entry) => entry.endsWith('.json'))) {
      try {
        found.push({ id: name.slice(0, -5), meta: JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Meta });
      } catch {
        // Half written by a crash: swept with its photo when it expires, or replaced when sent again.
      }
    }
    return found;
  }

  async function removeOne(dir: string, id: string) {
    await rm(path.join(dir, id), { force: true });
    await rm(path.join(dir, `${id}.json`), { force: true });
  }

  return {
    /** Keeps an uploaded photo (its file still in the incoming folder) for the claim with `key`, sent by `client`. */
    async stage(key: string, photo: { name: string; path: string; bytes: number }, client: string): Promise<StageResult> {
      const dir = dirOf(key);
      const { bytes: stagedBytes, clientBytes } = await sweep(client);
      const id = await hashOf(photo.path);
      const kept = await metasIn(dir);
      if (kept.some((entry) => entry.id === id)) return { kind: 'staged', id };
      if (kept.length >= PHOTO_MAX_COUNT) return { kind: 'too-many' };
      if (stagedBytes + photo.bytes > STAGED_PHOTOS.maxBytes || clientBytes + photo.bytes > STAGED_PHOTOS.perClientBytes)
        return { kind: 'no-room' };
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await copyFile(photo.path, path.join(dir, id));
      const meta: Meta = { name: photo.name, bytes: photo.bytes, stagedAt: now(), client };
      await writeFile(path.join(dir, `${id}.json`), JSON.stringify(meta));
      return { kind: 'staged', id };
    },

    /** The claim's staged photos by id, in that order, as the photo intake takes an upload; or the ids no longer kept. */
    async take(key: string, ids: readonly StagedPhotoId[]): Promise<{ photos: ReceivedPhoto[] } | { missing: StagedPhotoId[] }> {
      const dir = dirOf(key);
      const photos: ReceivedPhoto[] = [];
      const missing: StagedPhotoId[] = [];
      for (const id of ids) {
        const source = path.join(dir, id);
        try {
          const meta = JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as Meta;
          const { size } = await stat(source);
          if (now() - meta.stagedAt > STAGED_PHOTOS.lifetimeMs) throw new Error('expired');
          photos.push({ name: meta.name, bytes: size, head: await headOf(source), source });
        } catch {
          missing.push(id);
        }
      }
      return missing.length > 0 ? { missing } : { photos };
    },

    /** The claim took its photos (stored): they go. */
    async discard(key: string): Promise<void> {
      await rm(dirOf(key), { recursive: true, force: true });
    },
  };
}

export type StagedPhotos = ReturnType<typeof createStagedPhotos>;
