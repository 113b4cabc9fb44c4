/**
 * `npm run backup -- --out FILE`: one .tar.gz of the site's state (a consistent snapshot of the
 * database taken while the site runs, the enquiry photos, the built-in gallery and the outbox files),
 * from the places the environment configures (DATABASE_URL, ENQUIRY_PHOTOS_DIR, GALLERY_DIR,
 * ENQUIRY_OUTBOX_DIR). `npm run restore -- FILE` puts it back.
 */
import { parseArgs } from 'node:util';
import { BackupError, createBackup, statePlaces } from '@/server/backup';

const usage = 'Usage: npm run backup -- --out FILE   (e.g. --out backups/site-$(date +%F).tar.gz)';

let out: string | undefined;
try {
  ({
    values: { out },
  } = parseArgs({ options: { out: { type: 'string' } }, strict: true }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
  process.exit(2);
}
if (!out) {
  console.error(usage);
  process.exit(2);
}

try {
  const { manifest, notes } = await createBackup(statePlaces(), out);
  const database = manifest.database ? `the database (${manifest.enquiries} enquiries, ${manifest.photos} photos)` : 'no database';
  console.log(
    `Wrote ${out}: ${database}; files: ${manifest.files['enquiry-photos']} enquiry photos, ${manifest.files.gallery} gallery, ${manifest.files.outbox} outbox.`,
  );
  for (const note of notes) console.log(note);
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exit(1);
}
