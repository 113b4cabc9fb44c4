/**
 * `npm run restore -- FILE [--replace]`: puts a backup made by `npm run backup` back into the places
 * the environment configures, with the site stopped. Refuses any place that is not empty unless
 * --replace is given, which deletes what is there first.
 */
import { parseArgs } from 'node:util';
import { BackupError, restoreBackup, statePlaces } from '@/server/backup';

const usage = 'Usage: npm run restore -- FILE [--replace]   (stop the site first)';

let parsed;
try {
  parsed = parseArgs({ options: { replace: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
  process.exit(2);
}
const [file, ...extra] = parsed.positionals;
if (!file || extra.length > 0) {
  console.error(usage);
  process.exit(2);
}

try {
  const manifest = await restoreBackup(file, statePlaces(), { replace: parsed.values.replace });
  const database = manifest.database
    ? `the database (${manifest.enquiries} enquiries, ${manifest.photos} photos)`
    : 'no database (it was hosted)';
  console.log(`Restored ${file} (made ${manifest.createdAt}): ${database}; the photos, the gallery and the outbox files.`);
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exit(1);
}
