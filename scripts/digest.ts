// `npm run digest -- --dry-run [--period YYYY-MM-DD] [--html]` prints the company's digest;
// `npm run digest -- --send` sends the current period's now, through the same code as the server's schedule.
import { isCalendarDate } from '@/lib/contact-fields';
import { webhooksConfigured } from '@/server/crm/webhook-status';
import { getDb } from '@/server/base/db';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { periodOfDate } from '@/server/reports/digest/period';
import { configuredDigestSender, digestSettings, previewDigest } from '@/server/reports/digest/schedule';
import { configuredPhotoStorage } from '@/server/reports/health';
import { createMailer } from '@/server/delivery/mailer';
import { parseCommandLine } from './support/command-line';

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

const values = parseCommandLine(
  {
    options: {
      'dry-run': { type: 'boolean' },
      send: { type: 'boolean' },
      period: { type: 'string' },
      html: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  },
  usage,
);
if (Boolean(values['dry-run']) === Boolean(values.send) || (values.period !== undefined && !values['dry-run'])) {
  console.error(usage);
  process.exit(2);
}
if (values.period !== undefined && !isCalendarDate(values.period)) {
  console.error(`--period takes a date written YYYY-MM-DD, not "${values.period}".\n\n${usage}`);
  process.exit(2);
}

const settings = digestSettings();
const db = await getDb();
let code = 0;
if (values['dry-run']) {
  // With the digest off, the preview shows the weekly one it would send.
  const mode = settings.mode === 'off' ? 'weekly' : settings.mode;
  const atMs = values.period ? periodOfDate(values.period, mode).startMs : undefined;
  const { email, sentAt } = await previewDigest(db, {
    mode,
    atMs,
    health: { photoStorage: configuredPhotoStorage(), webhooks: webhooksConfigured() },
  });
  if (settings.mode === 'off') console.log('(ENQUIRY_DIGEST=off: no digest is sent; this is the weekly one it would be.)\n');
  console.log(`To: ${settings.to}`);
  console.log(`Subject: ${email.subject}`);
  if (sentAt) console.log(`(Sent ${sentAt}.)`);
  console.log('');
  process.stdout.write(values.html ? email.html : email.text);
} else {
  const config = loadEnquiryConfig();
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir });
  const sender = configuredDigestSender(db, mailer, {});
  if (!sender) {
    console.error('The digest is off (ENQUIRY_DIGEST=off): nothing sent.');
    code = 2;
  } else {
    const outcome = await sender.sendCurrent();
    if (outcome.result === 'sent') console.log(`Sent ${outcome.key} to ${settings.to} via ${mailer.describe}: ${outcome.subject}`);
    else if (outcome.result === 'already-sent')
      console.log(`Nothing sent: the digest of ${outcome.key} went out ${outcome.sentAt ?? 'already'}.`);
    else if (outcome.result === 'in-progress') console.log(`Nothing sent: another process is sending the digest of ${outcome.key} now.`);
    else if (outcome.result === 'superseded')
      console.log(`Nothing sent: a digest of a later period is recorded (has the clock gone back?).`);
    else {
      console.error(
        `Not sent (${outcome.key}): ${outcome.error}${outcome.result === 'will-retry' ? '\nThe server tries again with growing delays.' : ''}`,
      );
      code = 1;
    }
  }
  mailer.close();
}
db.close();
process.exit(code);
