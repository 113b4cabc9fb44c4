import 'server-only';
import { cp, mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseFileOf, makePrivateDir, scanPrivatePlaces, serverLockFile } from '@/server/base/private-files';
import { unpackChecked } from './unpack';
import {
  BackupError,
  DATABASE_ENTRY,
  exists,
  FOLDERS,
  localDatabaseFile,
  type BackupManifest,
  type FolderEntry,
  type StatePlaces,
} from './format';

async function isEmptyPlace(target: string): Promise<boolean> {
  try {
    const info = await stat(target);
    if (!info.isDirectory()) return false;
    return (await readdir(target)).length === 0;
  } catch {
    return true;
  }
}

type SiteProcess = { pid: number; command: string; holds: string };

async function commandOf(pid: number): Promise<string> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  const command = raw.split('\0').filter(Boolean).join(' ');
  return command.length > 120 ? `${command.slice(0, 117)}...` : command || 'unknown command';
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The processes using the site's data: any with the database file (or its -wal) open, found through
 * /proc (Linux; processes of other users are found when run as root), and the server named by the lock
 * file it writes at start, when that process is alive.
 */
async function processesUsing(places: StatePlaces): Promise<SiteProcess[]> {
  const found: SiteProcess[] = [];
  const databaseFile = databaseFileOf(places.databaseUrl);
  if (databaseFile) {
    const watched = new Set([databaseFile, `${databaseFile}-wal`]);
    const pids = await readdir('/proc').catch(() => [] as string[]);
    for (const pid of pids) {
      // This process's own handles are not the site (libSQL lets go of a closed file only when collected).
      if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      for (const fd of fds) {
        const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        if (!watched.has(target)) continue;
        // Named as the database, whichever of its files the process has open first.
        found.push({ pid: Number(pid), command: await commandOf(Number(pid)), holds: databaseFile });
        break;
      }
    }
  }
  const lockFile = serverLockFile(places);
  const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) && !found.some((known) => known.pid === pid))
    found.push({ pid, command: await commandOf(pid), holds: lockFile });
  return found;
}

type RestoreOptions = {
  /** Delete what is in the places first. */
  replace?: boolean;
  /** age private keys (AGE-SECRET-KEY-1…) for an encrypted archive. */
  identities?: readonly string[];
};

/**
 * Puts an archive back. Refuses while any process uses the data (the site, `npm run enquiries`), and
 * any archive holding something a backup does not (links, devices, paths outside its folders, an
 * unknown manifest) or cut short, naming the entry, before anything is written to the site's places.
 * Every place must be empty (no database file, empty or missing folders) unless `replace` is set, in
 * which case what is there is deleted first. What it writes is owner-only.
 */
export async function restoreBackup(archive: string, places: StatePlaces, options: RestoreOptions = {}): Promise<BackupManifest> {
  const databaseFile = localDatabaseFile(places.databaseUrl);
  const users = await processesUsing(places);
  if (users.length > 0)
    throw new BackupError(
      `The site's data is in use, so it is not restored into: ${users
        .map((user) => `process ${user.pid} (${user.command}) holds ${user.holds}`)
        .join('; ')}. Stop the site first (systemctl stop homecare), then restore.`,
    );

  const stage = await mkdtemp(path.join(tmpdir(), 'homecare-restore-'));
  try {
    const manifest = await unpackChecked(archive, stage, options.identities ?? []);
    if (manifest.database && !databaseFile)
      throw new BackupError('The archive holds a database but DATABASE_URL names a hosted one: restore it into a file: database.');
    const targets = [
      ...(manifest.database && databaseFile ? [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`] : []),
      ...Object.values(FOLDERS).map((place) => path.resolve(places[place])),
    ];
    const occupied: string[] = [];
    for (const target of targets) if (!(await isEmptyPlace(target))) occupied.push(target);
    if (occupied.length > 0 && !options.replace)
      throw new BackupError(`Not empty, so not restored into (add --replace to delete what is there first):\n  ${occupied.join('\n  ')}`);
    for (const target of occupied) await rm(target, { recursive: true, force: true });

    // The stage's files are 0600 and its folders 0700; copies keep those modes.
    const written: string[] = [];
    if (manifest.database && databaseFile) {
      await makePrivateDir(path.dirname(databaseFile));
      await cp(path.join(stage, DATABASE_ENTRY), databaseFile);
      written.push(databaseFile);
    }
    for (const [entry, place] of Object.entries(FOLDERS) as [FolderEntry, keyof StatePlaces][]) {
      const source = path.join(stage, entry);
      if (!(await exists(source))) continue;
      const target = path.resolve(places[place]);
      await makePrivateDir(target);
      await cp(source, target, { recursive: true });
      written.push(target);
    }
    // A folder that was there already (empty) keeps its own mode unless tightened here.
    await scanPrivatePlaces({ folders: written, files: [], trees: [] }, { tighten: true });
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
