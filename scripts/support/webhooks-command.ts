// What `npm run webhooks` does (scripts/webhooks.ts runs it): the events the site sends the company's
// CRM (CRM_WEBHOOK_URL), listed or queued again, in the site's database (DATABASE_URL).
import type { Client } from '@libsql/client';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { resendEvents, undeliveredEvents, webhooksConfigured } from '@/server/crm/webhook-status';
import { oneLine, tableLines } from './listing-cli';
import { withDatabase, type CommandIo } from './command-io';
import { readCommandLine } from './command-line';

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

const OPTIONS = {
  options: { list: { type: 'boolean' }, resend: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
} as const;

/** `npm run webhooks` with these arguments: what it prints goes to `io`, its exit code is returned. */
export async function webhooksMain(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = readCommandLine(OPTIONS, usage, args, io);
  if ('exitCode' in parsed) return parsed.exitCode;
  const { values } = parsed;
  if (Boolean(values.list) === (values.resend !== undefined)) {
    io.error(usage);
    return 2;
  }
  if (!webhooksConfigured()) {
    io.error('Webhooks to the CRM are off: set CRM_WEBHOOK_URL and CRM_WEBHOOK_SECRET (docs/configuration.md).');
    return 1;
  }
  const resend = values.resend;
  return withDatabase((db) => (resend === undefined ? list(db, io) : resendOf(db, resend, io)));
}

async function resendOf(db: Client, given: string, io: CommandIo): Promise<number> {
  const reference = given.trim().toUpperCase();
  const queued = isEnquiryReference(reference) ? await resendEvents(db, enquiryIdOf(reference), Date.now()) : null;
  if (queued === null) {
    io.error(`There is no enquiry ${oneLine(given, 40)}.`);
    return 1;
  }
  if (queued === 0) io.log(`${reference} has no events to send: it was not accepted (spam or suspect), so the CRM is not told of it.`);
  else
    io.log(
      `Queued ${queued} event${queued === 1 ? '' : 's'} of ${reference} again; the running server's worker sends ${queued === 1 ? 'it' : 'them'} at its next poll.`,
    );
  return 0;
}

async function list(db: Client, io: CommandIo): Promise<number> {
  const events = await undeliveredEvents(db);
  if (events.length === 0) {
    io.log('Every event has reached the CRM.');
    return 0;
  }
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
  io.log(tableLines(['reference', 'event', 'status', 'attempts', 'queued (UTC)', 'next attempt', 'last error'], rows).join('\n'));
  return 0;
}
