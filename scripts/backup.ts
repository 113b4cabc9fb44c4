/**
 * `npm run backup -- --out FILE [--recipient age1… …] [--recipients-file FILE]`: one .tar.gz of the
 * site's state (a consistent snapshot of the database taken while the site runs, the enquiry photos,
 * the built-in gallery and the outbox files), from the places the environment configures
 * (DATABASE_URL, ENQUIRY_PHOTOS_DIR, GALLERY_DIR, ENQUIRY_OUTBOX_DIR), written owner-only (0600).
 * With recipients it is encrypted with age to their public keys, so it can travel to another machine
 * and only the holders of the private keys can read it. `npm run restore -- FILE` puts it back.
 */
import { parseArgs } from 'node:util';
import { BackupError, checkRecipients, createBackup, readRecipientsFile, statePlaces } from '@/server/upkeep/backup';

const usage =
  'Usage: npm run backup -- --out FILE [--recipient age1… (repeatable)] [--recipients-file FILE]\n' +
  '  e.g. --out backups/site-$(date +%F).tar.gz.age --recipients-file /etc/homecare/backup-recipients.txt';

let values;
try {
  ({ values } = parseArgs({
    options: {
      out: { type: 'string' },
      recipient: { type: 'string', multiple: true },
      'recipients-file': { type: 'string', multiple: true },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
  process.exit(2);
}
const out = values.out;
if (!out) {
  console.error(usage);
  process.exit(2);
}

try {
  const recipients = checkRecipients(values.recipient ?? []);
  for (const file of values['recipients-file'] ?? []) recipients.push(...(await readRecipientsFile(file)));
  const { manifest, notes } = await createBackup(statePlaces(), out, { recipients });
  const database = manifest.database ? `the database (${manifest.enquiries} enquiries, ${manifest.photos} photos)` : 'no database';
  const encryption =
    recipients.length > 0 ? `, encrypted to ${recipients.length} public key${recipients.length === 1 ? '' : 's'}` : ', not encrypted';
  console.log(
    `Wrote ${out}${encryption}: ${database}; files: ${manifest.files['enquiry-photos']} enquiry photos, ${manifest.files.gallery} gallery, ${manifest.files.outbox} outbox.`,
  );
  for (const note of notes) console.log(note);
} catch (error) {
  // A refusal, or a system error (a folder it may not write, a full disk): the sentence, no stack trace.
  const systemError = error instanceof Error && 'code' in error;
  console.error(error instanceof BackupError || systemError ? error.message : error);
  process.exit(1);
}
