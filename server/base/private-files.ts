import 'server-only';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { config } from '@/server/base/config.mjs';
import { onShutdown } from '@/server/base/shutdown-hooks.mjs';

/**
 * Everything the site keeps about a person (the database, its -wal and -shm files, enquiry photos,
 * uploads waiting to be read, saved .eml copies, backups) is readable by the site's own user and
 * nobody else, whatever umask the process was started with. Every place that creates such a file
 * passes these modes explicitly; the umask can only take bits away from them, never add any.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
/** Group and other bits: a place with any of them set can be read (or listed) by other users. */
const OTHERS = 0o077;

/** `mkdir -p` whose new folders (the parents it makes included) are owner-only. An existing folder keeps its mode. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates the database file (empty, owner-only) before libSQL opens it. SQLite gives the -wal and -shm
 * files it makes later the mode of the database file itself, so this one mode covers all three; left
 * to libSQL, the file would be 0644 less the umask.
 */
export function createPrivateDatabaseFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The database file of a `file:` URL, or null for a hosted (libsql://, https://) or in-memory database. */
export function databaseFileOf(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const file = url.slice('file:'.length);
  return file && file !== ':memory:' ? path.resolve(file) : null;
}

/** The places that hold personal data, as the configuration names them. */
type PrivatePlaces = {
  /** Checked themselves, not what is inside: the database's folder (usually data/). */
  folders: string[];
  /** Files: the database, its -wal and -shm, the server's lock file. */
  files: string[];
  /** Walked, everything inside included: the enquiry photos (with uploads waiting) and the saved e-mails. */
  trees: string[];
};

/** The file the running server keeps its process id in, beside the database (or the photos when the database is hosted). */
export function serverLockFile(settings: { databaseUrl: string; photosDir: string }): string {
  const databaseFile = databaseFileOf(settings.databaseUrl);
  return path.join(path.dirname(databaseFile ?? path.resolve(settings.photosDir)), 'server.pid');
}

export function privatePlacesOf(settings: { databaseUrl: string; photosDir: string; outboxDir: string }): PrivatePlaces {
  const databaseFile = databaseFileOf(settings.databaseUrl);
  const folders: string[] = [];
  const files = [serverLockFile(settings)];
  if (databaseFile) {
    files.push(databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`);
    // data/ is the site's own folder; a database kept in the checkout itself (or above it) is not
    // a reason to change the checkout's mode.
    const folder = path.dirname(databaseFile);
    const cwd = process.cwd();
    if (folder !== cwd && !cwd.startsWith(`${folder}${path.sep}`)) folders.push(folder);
  }
  return { folders, files, trees: [path.resolve(settings.photosDir), path.resolve(settings.outboxDir)] };
}

export type WidePlace = { path: string; mode: string };
type TightenedPlace = WidePlace & { now: string };
type UntightenedPlace = WidePlace & { reason: string };
type PrivacyScan = {
  /** Places found readable by others (and, when tightening, made owner-only). */
  tightened: TightenedPlace[];
  /** Places readable by others that stay so: not ours to change, or only checked. */
  wide: UntightenedPlace[];
  /** Entries looked at; the walk stops at the limit. */
  visited: number;
  complete: boolean;
};

/** The sticky bit or others' write bit: a folder meant for more than the site. */
const SHARED_FOLDER = 0o1002;

/** How many entries one walk looks at, at most (a few seconds at start on a slow disk). */
const PRIVACY_SCAN_LIMIT = 200_000;

const octal = (mode: number) => (mode & 0o777).toString(8);

/**
 * Finds every place of `places` that other users can read, and with `tighten` takes their bits away
 * (0755 → 0700, 0644 → 0600; the owner's bits stay as they are). Symbolic links are neither followed
 * nor changed. A place it may not change (another owner) is reported with the reason.
 */
export async function scanPrivatePlaces(
  places: PrivatePlaces,
  options: { tighten: boolean; limit?: number; recursive?: boolean },
): Promise<PrivacyScan> {
  const limit = options.limit ?? PRIVACY_SCAN_LIMIT;
  const scan: PrivacyScan = { tightened: [], wide: [], visited: 0, complete: true };
  const seen = new Set<string>();
  const stack: { target: string; walk: boolean; holder?: boolean }[] = [
    ...places.trees.map((target) => ({ target, walk: options.recursive ?? true })),
    ...places.files.map((target) => ({ target, walk: false })),
    ...places.folders.map((target) => ({ target, walk: false, holder: true })),
  ].reverse();
  while (stack.length > 0) {
    const { target, walk, holder } = stack.pop()!;
    if (seen.has(target)) continue;
    seen.add(target);
    if (scan.visited >= limit) {
      scan.complete = false;
      break;
    }
    scan.visited += 1;
    let info;
    try {
      info = await lstat(target);
    } catch {
      continue; // not there (yet): nothing to protect
    }
    if (info.isSymbolicLink()) continue;
    // The database's folder may be one others share on purpose (a sticky /tmp, a world-writable
    // folder): not the site's to change; the files in it are owner-only in any case.
    if (holder && (info.mode & SHARED_FOLDER) !== 0) continue;
    if ((info.mode & OTHERS) !== 0) {
      const wide = { path: target, mode: octal(info.mode) };
      if (!options.tighten) scan.wide.push({ ...wide, reason: 'only checked' });
      else
        try {
          await chmod(target, info.mode & 0o7700);
          scan.tightened.push({ ...wide, now: octal(info.mode & ~OTHERS) });
        } catch (error) {
          scan.wide.push({ ...wide, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
        }
    }
    if (walk && info.isDirectory()) {
      let names: string[];
      try {
        names = await readdir(target);
      } catch {
        continue;
      }
      for (const name of names.sort().reverse()) stack.push({ target: path.join(target, name), walk: true });
    }
  }
  return scan;
}

const shown = (place: WidePlace) => path.relative(process.cwd(), place.path) || '.';
const listed = (items: string[], max = 10) =>
  items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');

/** The lines the server logs once at start about a scan (none when there was nothing to say). */
export function describeScan(scan: PrivacyScan): { info: string[]; errors: string[] } {
  const info: string[] = [];
  const errors: string[] = [];
  if (scan.tightened.length > 0)
    info.push(
      `[privacy] ${scan.tightened.length} place(s) holding personal data could be read by other users of this machine; now owner-only: ${listed(
        scan.tightened.map((place) => `${shown(place)} (${place.mode} → ${place.now})`),
      )}`,
    );
  if (scan.wide.length > 0)
    errors.push(
      `[privacy] could not make owner-only (change their owner or mode by hand; /api/health reports them until then): ${listed(
        scan.wide.map((place) => `${shown(place)} (${place.mode}, ${place.reason})`),
      )}`,
    );
  if (!scan.complete) info.push(`[privacy] stopped checking modes after ${scan.visited} entries; npm run health checks them all.`);
  return { info, errors };
}

/** The places this environment's configuration names (DATABASE_URL, ENQUIRY_PHOTOS_DIR, ENQUIRY_OUTBOX_DIR). */
export function configuredPrivatePlaces(): PrivatePlaces {
  const settings = config();
  return privatePlacesOf({
    databaseUrl: settings.database.url,
    photosDir: settings.enquiries.photosDir,
    outboxDir: settings.enquiries.outboxDir,
  });
}

// What the start-up check could not tighten, for /api/health (kept on globalThis: Next bundles
// instrumentation and the route handlers apart, each with its own copy of this module).
const KEY = Symbol.for('homecare.privacy.untightened');
type Holder = { [KEY]?: string[] };

/**
 * At server start: makes every place holding personal data owner-only (logging once what it changed
 * and what it could not), and writes the server's lock file, which `npm run restore` reads to refuse
 * while the site runs on the same data. The lock file goes on shutdown.
 */
export async function securePrivatePlacesAtStart(log: Pick<Console, 'log' | 'error'> = console): Promise<PrivacyScan> {
  const settings = config();
  const places = configuredPrivatePlaces();
  const scan = await scanPrivatePlaces(places, { tighten: true });
  (globalThis as Holder)[KEY] = scan.wide.map((place) => place.path);
  const { info, errors } = describeScan(scan);
  for (const line of info) log.log(line);
  for (const line of errors) log.error(line);
  const lockFile = serverLockFile({ databaseUrl: settings.database.url, photosDir: settings.enquiries.photosDir });
  try {
    await makePrivateDir(path.dirname(lockFile));
    await rm(lockFile, { force: true });
    await writeFile(lockFile, `${process.pid}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    onShutdown('server-lock-file', async () => {
      const holder = await readFile(lockFile, 'utf8').catch(() => '');
      if (holder.trim() === String(process.pid)) await rm(lockFile, { force: true });
    });
  } catch (error) {
    log.error(`[privacy] could not write ${lockFile} (npm run restore reads it to refuse while the site runs):`, (error as Error).message);
  }
  return scan;
}

/**
 * For /api/health, cheap enough for every call: the places the start-up check could not tighten and
 * the top-level places (folders themselves, not their contents), as they are now.
 */
export async function privatePlacesStillWide(places: PrivatePlaces = configuredPrivatePlaces()): Promise<WidePlace[]> {
  const untightened = (globalThis as Holder)[KEY] ?? [];
  const scan = await scanPrivatePlaces(
    { folders: [...places.folders, ...places.trees, ...untightened], files: places.files, trees: [] },
    { tighten: false },
  );
  return scan.wide.map(({ path: place, mode }) => ({ path: place, mode }));
}
