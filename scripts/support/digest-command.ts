// What `npm run digest` does (scripts/digest.ts runs it): the company's digest printed as it would be
// sent, or sent now through the same code as the server's schedule.
import type { Client } from '@libsql/client';
import { isCalendarDate } from '@/lib/contact-fields';
import { webhooksConfigured } from '@/server/crm/webhook-status';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { periodOfDate } from '@/server/reports/digest/period';
import { configuredDigestSender, digestSettings, previewDigest } from '@/server/reports/digest/schedule';
import { configuredPhotoStorage } from '@/server/reports/health';
import { createMailer } from '@/server/delivery/mailer';
import { withDatabase, type CommandIo } from './command-io';
import { readCommandLine } from './command-line';

const usage = `Usage: npm run digest -- --dry-run [--period YYYY-MM-DD] [--html]
       npm run digest -- --send
The company's digest (ENQUIRY_DIGEST: weekly on Monday 08:00 London time, daily at 08:00, or off) of
the database at DATABASE_URL (default file:data/site.db).
  --dry-run            print the digest of the period in progress as it would be sent now (its text;
                       --html for the HTML part); sends and records nothing
  --period YYYY-MM-DD  with --dry-run: the period that holds that day instead (as sent, if it was)
  --send               send the period in progress's digest now, to ENQUIRY_DIGEST_TO (else ENQUIRY_TO)
                       through SMTP_URL (else into ENQUIRY_OUTBOX_DIR). It is that period's digest: the
                       schedule sends none for it, and the next one starts where it stopped. Run again in
                       the same period, it sends nothing.`;

const OPTIONS = {
  options: {
    'dry-run': { type: 'boolean' },
    send: { type: 'boolean' },
    period: { type: 'string' },
    html: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
} as const;

/** `npm run digest` with these arguments: what it prints goes to `io`, its exit code is returned. */
export async function digestMain(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = readCommandLine(OPTIONS, usage, args, io);
  if ('exitCode' in parsed) return parsed.exitCode;
  const { values } = parsed;
  if (Boolean(values['dry-run']) === Boolean(values.send) || (values.period !== undefined && !values['dry-run'])) {
    io.error(usage);
    return 2;
  }
  if (values.period !== undefined && !isCalendarDate(values.period)) {
    io.error(`--period takes a date written YYYY-MM-DD, not "${values.period}".\n\n${usage}`);
    return 2;
  }
  const settings = digestSettings();
  const dryRunOf = { period: values.period, html: Boolean(values.html) };
  return withDatabase((db) => (values['dry-run'] ? dryRun(db, settings, dryRunOf, io) : send(db, settings, io)));
}

type Settings = ReturnType<typeof digestSettings>;

/** The digest of the period in progress (or the one holding `period`), printed as it would be sent. */
async function dryRun(
  db: Client,
  settings: Settings,
  { period, html }: { period: string | undefined; html: boolean },
  io: CommandIo,
): Promise<number> {
  // With the digest off, the preview shows the weekly one it would send.
  const mode = settings.mode === 'off' ? 'weekly' : settings.mode;
  const atMs = period ? periodOfDate(period, mode).startMs : undefined;
  const { email, sentAt } = await previewDigest(db, {
    mode,
    atMs,
    health: { photoStorage: configuredPhotoStorage(), webhooks: webhooksConfigured() },
  });
  if (settings.mode === 'off') io.log('(ENQUIRY_DIGEST=off: no digest is sent; this is the weekly one it would be.)\n');
  io.log(`To: ${settings.to}`);
  io.log(`Subject: ${email.subject}`);
  if (sentAt) io.log(`(Sent ${sentAt}.)`);
  io.log('');
  io.write(html ? email.html : email.text);
  return 0;
}

/** The period in progress's digest sent now, unless it went out already. */
async function send(db: Client, settings: Settings, io: CommandIo): Promise<number> {
  const config = loadEnquiryConfig();
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir });
  try {
    const sender = configuredDigestSender(db, mailer, {});
    if (!sender) {
      io.error('The digest is off (ENQUIRY_DIGEST=off): nothing sent.');
      return 2;
    }
    const outcome = await sender.sendCurrent();
    if (outcome.result === 'sent') io.log(`Sent ${outcome.key} to ${settings.to} via ${mailer.describe}: ${outcome.subject}`);
    else if (outcome.result === 'already-sent')
      io.log(`Nothing sent: the digest of ${outcome.key} went out ${outcome.sentAt ?? 'already'}.`);
    else if (outcome.result === 'in-progress') io.log(`Nothing sent: another process is sending the digest of ${outcome.key} now.`);
    else if (outcome.result === 'superseded') io.log(`Nothing sent: a digest of a later period is recorded (has the clock gone back?).`);
    else {
      io.error(
        `Not sent (${outcome.key}): ${outcome.error}${outcome.result === 'will-retry' ? '\nThe server tries again with growing delays.' : ''}`,
      );
      return 1;
    }
    return 0;
  } finally {
    mailer.close();
  }
}
