// `npm run webhooks -- --list` and `npm run webhooks -- --resend HC-ABC-DEF`: the events the site sends
// the company's CRM (CRM_WEBHOOK_URL), in the site's database (DATABASE_URL).
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { resendEvents, undeliveredEvents, webhooksConfigured } from '@/server/crm/webhook-status';
import { getDb } from '@/server/base/db';
import { oneLine, tableLines } from './support/listing-cli';
import { parseCommandLine } from './support/command-line';

const usage = `Usage: npm run webhooks -- --list
       npm run webhooks -- --resend HC-ABC-DEF
The events the site sends the company's CRM by signed webhooks (on when CRM_WEBHOOK_URL and
CRM_WEBHOOK_SECRET are set), from the database at DATABASE_URL (default file:data/site.db).
  --list               print the events not delivered: still being tried, or failed for good (the CRM
                       refused them, or they were not delivered within a day), oldest first
  --resend REFERENCE   send that enquiry's events again under their ids (the CRM applies each once):
                       each is tried again from now, for another day. An accepted enquiry with none
                       (stored before the webhooks were on) gets its enquiry.received event. The
                       running server's worker sends them at its next poll.`;

const values = parseCommandLine(
  {
    options: { list: { type: 'boolean' }, resend: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  },
  usage,
);
if (Boolean(values.list) === (values.resend !== undefined)) {
  console.error(usage);
  process.exit(2);
}
if (!webhooksConfigured()) {
  console.error('Webhooks to the CRM are off: set CRM_WEBHOOK_URL and CRM_WEBHOOK_SECRET (docs/configuration.md).');
  process.exit(1);
}

const db = await getDb();
let code = 0;
if (values.resend !== undefined) {
  const reference = values.resend.trim().toUpperCase();
  const queued = isEnquiryReference(reference) ? await resendEvents(db, enquiryIdOf(reference), Date.now()) : null;
  if (queued === null) {
    console.error(`There is no enquiry ${oneLine(values.resend, 40)}.`);
    code = 1;
  } else if (queued === 0) {
    console.log(`${reference} has no events to send: it was not accepted (spam or suspect), so the CRM is not told of it.`);
  } else {
    console.log(
      `Queued ${queued} event${queued === 1 ? '' : 's'} of ${reference} again; the running server's worker sends ${queued === 1 ? 'it' : 'them'} at its next poll.`,
    );
  }
} else {
  const events = await undeliveredEvents(db);
  if (events.length === 0) console.log('Every event has reached the CRM.');
  else {
    const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
    const rows = events.map((event) => [
      event.reference,
      event.type,
      event.status === 'failed' ? 'FAILED' : 'waiting',
      String(event.attempts),
      at(event.createdMs),
      event.status === 'failed' ? '-' : at(event.nextAttemptMs),
      oneLine(event.lastError ?? '-', 80),
    ]);
    console.log(tableLines(['reference', 'event', 'status', 'attempts', 'queued (UTC)', 'next attempt', 'last error'], rows).join('\n'));
  }
}
db.close();
process.exit(code);
