// Opens (and so migrates) the database at argv[2] the way the server and the CLIs do, after waiting
// for the moment given in argv[3] (ms since the epoch), so several processes start together.
import { openDatabase } from '@/server/base/db';

const [url, startAt = '0'] = process.argv.slice(2);
const wait = Number(startAt) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
try {
  const client = await openDatabase(url!);
  const ids = (await client.execute('SELECT id FROM schema_migrations ORDER BY id')).rows.map((row) => String(row.id));
  process.stdout.write(JSON.stringify({ ok: true, ids }) + '\n');
  client.close();
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, error: String(error), cause: String((error as Error).cause ?? ''), stack: (error as Error).stack }) + '\n',
  );
  process.exit(1);
}
