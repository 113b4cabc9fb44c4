import 'server-only';
import { config } from '@/server/base/config.mjs';
import type { StatePlaces } from './backup/format';

/**
 * One archive (.tar.gz) of everything the site keeps: the database as a consistent snapshot taken with
 * SQLite's `VACUUM INTO` (safe while the site is running and writing; never a file copy), the enquiry
 * photos, the built-in gallery's added items and the outbox's saved messages. Written owner-only, and
 * encrypted to one or more age public keys when given, so it can be kept on another machine. Restored
 * into an empty state only, unless told to replace what is there, and never while the site runs on it.
 *
 * The parts, in backup/: format.ts (the archive's layout and manifest), keys.ts (age keys), pack.ts
 * (the backup), verify.ts (what an archive may hold, and opening it), unpack.ts (reading it checked into
 * a stage), restore.ts (putting the stage back).
 */
export { BackupError, type StatePlaces } from './backup/format';
export { checkRecipients, readIdentityFile, readRecipientsFile } from './backup/keys';
export { createBackup } from './backup/pack';
export { restoreBackup } from './backup/restore';

/** Where this environment keeps the site's state (DATABASE_URL and the three folders). */
export function statePlaces(): StatePlaces {
  const settings = config();
  return {
    databaseUrl: settings.database.url,
    photosDir: settings.enquiries.photosDir,
    galleryDir: settings.galleryDir,
    outboxDir: settings.enquiries.outboxDir,
  };
}
