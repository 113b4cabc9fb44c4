// `npm run logs [-- --limit N]`: the most recently seen error-log entries in the site's database (DATABASE_URL).
import { recentErrorLogs, type StoredErrorLog } from '@/server/error-log/store';
import { getDb } from '@/server/base/db';
import { oneLine, parseListingOptions, tableLines, terminalJson } from './support/listing-cli';

const usage = `Usage: npm run logs [-- --limit N] [-- --json]
Prints the N most recently seen error-log entries (default 20, at most 1000), newest first, from the
database at DATABASE_URL (default file:data/site.db). Visitors' reports of one failure (the same
message, category and path) are one entry: "count" says how many came, "first seen" and "last seen"
when. "from" says who wrote each entry: the server itself, or a visitor's browser through
POST /api/error-logs (with the address of the latest report), whatever source and level that
visitor's record claims.`;

function table(entries: StoredErrorLog[]) {
  const rows = entries.map((entry) => [
    entry.lastSeenAt,
    String(entry.occurrences),
    entry.occurrences > 1 ? entry.receivedAt : '-',
    entry.reportedBy === 'server' ? 'server' : `visitor ${entry.clientAddress ?? '?'}`,
    entry.source,
    entry.level,
    entry.category,
    entry.path ?? '-',
    oneLine(entry.message, 120),
  ]);
  return tableLines(['last seen', 'count', 'first seen', 'from', 'source', 'level', 'category', 'path', 'message'], rows, 40).join('\n');
}

const options = parseListingOptions(usage);
const entries = await recentErrorLogs(options.limit);
if (options.json) {
  console.log(terminalJson(entries));
} else if (entries.length === 0) {
  console.log('No error-log entries yet.');
} else {
  console.log(table(entries));
}
(await getDb()).close();
