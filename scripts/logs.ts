// `npm run logs [-- --limit N]`: the most recent error-log entries in the site's database (DATABASE_URL).
import { recentErrorLogs, type StoredErrorLog } from '@/server/error-log-store';
import { getDb } from '@/server/db';
import { oneLine, parseListingOptions, tableLines } from './support/listing-cli';

const usage = `Usage: npm run logs [-- --limit N] [-- --json]
Prints the N most recent error-log entries (default 20, at most 1000), oldest first,
from the database at DATABASE_URL (default file:data/site.db).`;

function table(entries: StoredErrorLog[]) {
  const rows = entries.map((entry) => [entry.receivedAt, entry.level, entry.category, entry.path ?? '-', oneLine(entry.message, 120)]);
  return tableLines(['time', 'level', 'category', 'path', 'message'], rows, 40).join('\n');
}

const options = parseListingOptions(usage);
const entries = (await recentErrorLogs(options.limit)).reverse();
if (options.json) {
  console.log(JSON.stringify(entries, null, 2));
} else if (entries.length === 0) {
  console.log('No error-log entries yet.');
} else {
  console.log(table(entries));
}
(await getDb()).close();
