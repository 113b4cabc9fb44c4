// `npm run enquiries [-- --limit N] [-- --json] [-- --retry-failed]`: recent enquiries in the site's
// database (DATABASE_URL) with their verification and delivery status; `--export EMAIL` and
// `--erase EMAIL` answer a person's request for their data.
import { getDb } from '@/server/db';
import { erasePersonalData, exportPersonalData } from '@/server/enquiries/data-requests';
import { retryFailedJobs } from '@/server/enquiries/outbox-worker';
import { recentEnquiries, type EnquiryListing } from '@/server/enquiries/store';
import { oneLine, parseListingOptions, printable, tableLines, terminalJson } from './support/listing-cli';

const usage = `Usage: npm run enquiries [-- --limit N] [-- --json] [-- --full] [-- --retry-failed]
Prints the N most recent enquiries (default 20, at most 1000), oldest first, from the database at
DATABASE_URL (default file:data/site.db): when, who, subject, disposition (accepted, spam, suspect),
verification (verified, unverified, low-score, honeypot, not-configured) and delivery of the
notification (pending, sent, failed, not notified).
  --full          also print each message
  --retry-failed  requeue every notification that failed permanently, then list
  --export EMAIL  print everything held about that e-mail address as JSON (a subject access request)
  --erase EMAIL   delete every enquiry sent with that address, with its notification (even if pending)`;

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
  const [headerLine, ...rowLines] = tableLines(header, rows);
  const lines = [headerLine!];
  rowLines.forEach((line, index) => {
    lines.push(line);
    const entry = entries[index]!;
    if (full) {
      lines.push(`    phone: ${oneLine(entry.phone ?? '-', 60)}  client: ${oneLine(entry.clientAddress, 60)}`);
      lines.push(
        ...printable(entry.message)
          .split('\n')
          .map((text) => `    | ${text}`),
      );
    }
  });
  return lines.join('\n');
}

const options = parseListingOptions(usage, ['full', 'retry-failed'] as const, ['export', 'erase'] as const);
const db = await getDb();
const personal = options.texts.export ?? options.texts.erase;
if (personal !== undefined && !/^[^\s@]+@[^\s@]+$/.test(personal.trim())) {
  console.error(`"${personal}" is not an e-mail address.\n\n${usage}`);
  process.exit(2);
}
if (options.texts.export !== undefined) {
  console.log(terminalJson(await exportPersonalData(db, options.texts.export)));
  db.close();
  process.exit(0);
}
if (options.texts.erase !== undefined) {
  const erased = await erasePersonalData(db, options.texts.erase);
  console.log(
    `Erased ${erased.enquiries} enquir${erased.enquiries === 1 ? 'y' : 'ies'} and ${erased.notifications} notification${erased.notifications === 1 ? '' : 's'} for ${options.texts.erase}.`,
  );
  db.close();
  process.exit(0);
}
if (options.flags['retry-failed']) {
  const requeued = await retryFailedJobs(db);
  console.log(
    `Requeued ${requeued} failed notification${requeued === 1 ? '' : 's'}; the running server's worker sends them at its next poll.`,
  );
}
const entries = await recentEnquiries(db, options.limit);
if (options.json) console.log(terminalJson(entries));
else if (entries.length === 0) console.log('No enquiries yet.');
else console.log(table(entries, options.flags.full));
db.close();
