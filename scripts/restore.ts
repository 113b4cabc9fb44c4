/**
 * `npm run restore -- FILE [--identity KEYFILE] [--replace]`: puts a backup made by `npm run backup`
 * back into the places the environment configures, with the site stopped (it refuses while any
 * process uses the database, naming it). An encrypted backup needs the private key it was encrypted
 * to (--identity, an age key file). Refuses any place that is not empty unless --replace is given,
 * which deletes what is there first, and any archive holding more than a backup does.
 */
import { parseArgs } from 'node:util';
import { BackupError, readIdentityFile, restoreBackup, statePlaces } from '@/server/upkeep/backup';

const usage = 'Usage: npm run restore -- FILE [--identity KEYFILE (repeatable)] [--replace]   (stop the site first)';

let parsed;
try {
  parsed = parseArgs({
    options: { replace: { type: 'boolean', default: false }, identity: { type: 'string', multiple: true } },
    allowPositionals: true,
    strict: true,
  });
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
  const identities: string[] = [];
  for (const keyFile of parsed.values.identity ?? []) identities.push(...(await readIdentityFile(keyFile)));
  const manifest = await restoreBackup(file, statePlaces(), { replace: parsed.values.replace, identities });
  const database = manifest.database
    ? `the database (${manifest.enquiries} enquiries, ${manifest.photos} photos)`
    : 'no database (it was hosted)';
  console.log(`Restored ${file} (made ${manifest.createdAt}): ${database}; the photos, the gallery and the outbox files.`);
} catch (error) {
  // A refusal, or a system error (a folder it may not write, a full disk): the sentence, no stack trace.
  const systemError = error instanceof Error && 'code' in error;
  console.error(error instanceof BackupError || systemError ? error.message : error);
  process.exit(1);
}
