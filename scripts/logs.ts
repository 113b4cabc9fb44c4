// `npm run logs [-- --limit N]`: the most recent error-log entries in the site's database (DATABASE_URL).
import { parseArgs } from 'node:util';
import { recentErrorLogs, type StoredErrorLog } from '@/server/error-log-store';
import { getDb } from '@/server/db';

const usage = `Usage: npm run logs [-- --limit N] [-- --json]
Prints the N most recent error-log entries (default 20, at most 1000), oldest first,
from the database at DATABASE_URL (default file:data/site.db).`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: { limit: { type: 'string', short: 'n', default: '20' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) fail(`--limit must be a whole number from 1 to 1000, not "${values.limit}".`);
    return { limit, json: values.json };
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function oneLine(text: string, max: number) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function table(entries: StoredErrorLog[]) {
  const rows = entries.map((entry) => [entry.receivedAt, entry.level, entry.category, entry.path ?? '-', oneLine(entry.message, 120)]);
  const header = ['time', 'level', 'category', 'path', 'message'];
  const widths = header.map((title, column) => (column === 4 ? 0 : Math.max(title.length, ...rows.map((row) => Math.min(row[column]!.length, 40)))));
  const format = (row: string[]) => row.map((cell, column) => (column === 4 ? cell : oneLine(cell, 40).padEnd(widths[column]!))).join('  ');
  return [format(header), ...rows.map(format)].join('\n');
}

const options = parseOptions();
const entries = (await recentErrorLogs(options.limit)).reverse();
if (options.json) {
  console.log(JSON.stringify(entries, null, 2));
} else if (entries.length === 0) {
  console.log('No error-log entries yet.');
} else {
  console.log(table(entries));
}
(await getDb()).close();
