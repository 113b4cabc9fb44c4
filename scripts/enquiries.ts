// `npm run enquiries [-- --limit N] [-- --json] [-- --retry-failed]`: recent enquiries in the site's
// database (DATABASE_URL) with their verification and delivery status.
import { parseArgs } from 'node:util';
import { getDb } from '@/server/db';
import { retryFailedJobs } from '@/server/enquiries/outbox-worker';
import { recentEnquiries, type EnquiryListing } from '@/server/enquiries/store';

const usage = `Usage: npm run enquiries [-- --limit N] [-- --json] [-- --full] [-- --retry-failed]
Prints the N most recent enquiries (default 20, at most 1000), oldest first, from the database at
DATABASE_URL (default file:data/site.db): when, who, subject, disposition (accepted, spam, suspect),
verification (verified, unverified, low-score, honeypot, not-configured) and delivery of the
notification (pending, sent, failed, not notified).
  --full          also print each message
  --retry-failed  requeue every notification that failed permanently, then list`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        limit: { type: 'string', short: 'n', default: '20' },
        json: { type: 'boolean', default: false },
        full: { type: 'boolean', default: false },
        'retry-failed': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) fail(`--limit must be a whole number from 1 to 1000, not "${values.limit}".`);
    return { limit, json: values.json, full: values.full, retryFailed: values['retry-failed'] };
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function oneLine(text: string, max: number) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function delivery(entry: EnquiryListing) {
  if (entry.delivery === 'sent') return `sent ${entry.sentAt ?? ''}`.trim();
  if (entry.delivery === 'pending' && entry.attempts > 0) return `pending (${entry.attempts} tries: ${oneLine(entry.lastError ?? '', 60)})`;
  if (entry.delivery === 'failed') return `FAILED after ${entry.attempts}: ${oneLine(entry.lastError ?? '', 60)}`;
  return entry.delivery;
}

function table(entries: EnquiryListing[], full: boolean) {
  const header = ['#', 'received', 'from', 'subject', 'disposition', 'verification', 'delivery'];
  const rows = entries.map((entry) => [
    String(entry.id),
    entry.receivedAt.replace('T', ' ').slice(0, 19),
    oneLine(`${entry.name} <${entry.email}>`, 40),
    oneLine(entry.subject, 40),
    entry.disposition,
    entry.verification + (entry.score === null ? '' : ` (${entry.score})`),
    delivery(entry),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
  const lines = [format(header)];
  rows.forEach((row, index) => {
    lines.push(format(row));
    const entry = entries[index]!;
    if (full) lines.push(`    phone: ${entry.phone ?? '-'}  client: ${entry.clientAddress}`, ...entry.message.split('\n').map((line) => `    | ${line}`));
  });
  return lines.join('\n');
}

const options = parseOptions();
const db = await getDb();
if (options.retryFailed) {
  const requeued = await retryFailedJobs(db);
  console.log(`Requeued ${requeued} failed notification${requeued === 1 ? '' : 's'}; the running server's worker sends them at its next poll.`);
}
const entries = await recentEnquiries(db, options.limit);
if (options.json) console.log(JSON.stringify(entries, null, 2));
else if (entries.length === 0) console.log('No enquiries yet.');
else console.log(table(entries, options.full));
db.close();
