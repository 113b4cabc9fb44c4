// Another process writing to the site's database (a CLI, a backup): takes the write lock, says "held"
// on stdout, and commits after HOLD_MS. Used by server/base/db.test.ts and the outbox tests.
import { createClient } from '@libsql/client';

const [url, holdMs = '800'] = process.argv.slice(2);
const client = createClient({ url: url! });
const tx = await client.transaction('write');
await tx.execute('CREATE TABLE IF NOT EXISTS lock_probe (at INTEGER)');
await tx.execute({ sql: 'INSERT INTO lock_probe VALUES (?)', args: [Date.now()] });
process.stdout.write('held\n');
setTimeout(() => {
  void tx.commit().then(() => {
    client.close();
    process.exit(0);
  });
}, Number(holdMs));
