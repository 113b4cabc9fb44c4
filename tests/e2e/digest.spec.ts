import { expect, test, type APIRequestContext } from './support/test';
import { parseMail } from '../support/mail-message';
import { recaptchaTestToken } from '../support/recaptcha-tokens';
import { printed, runCommand, runTool } from '../support/tool-host/client';
import { peersControlUrl, productionConfigEnv, productionSiteUrl } from './test-env';
import { openTestDatabase } from './support/database';

// The company's digest from the production-configuration build's database (playwright.config.ts project
// 'production-config'): `npm run digest -- --send` mails it through the SMTP fake with the period's
// counts, and a second `--send` in the same period sends nothing. The first `--send` is the command as the
// operator runs it, in a process of its own; the other runs go through the tool host, in process.

type ReceivedMail = { from: string; to: string[]; subject: string; raw: string };

const DIGEST_SUBJECT = /^(?:Action needed: )?Website weekly digest .+ \(so far\): /;

/** The settings the digest command needs, as the production-configuration server has them. */
const digestEnv = {
  DATABASE_URL: productionConfigEnv.DATABASE_URL!,
  ENQUIRY_PHOTOS_DIR: productionConfigEnv.ENQUIRY_PHOTOS_DIR!,
  SMTP_URL: productionConfigEnv.SMTP_URL!,
  ENQUIRY_TO: productionConfigEnv.ENQUIRY_TO!,
  ENQUIRY_FROM: productionConfigEnv.ENQUIRY_FROM!,
};

/** `npm run digest -- …` against the production-configuration build's database, in process: what it printed. */
const digestCommand = (...args: string[]) => printed(runTool('digest', args, digestEnv));

/** The same, as the operator runs it: in a process of its own. */
const digestCommandEndToEnd = (...args: string[]) => printed(runCommand('digest', args, digestEnv));

/** Digests of the period in progress not recorded as sent (the server's schedule would still send them). */
async function unsentDigests(): Promise<number> {
  const db = openTestDatabase(productionConfigEnv.DATABASE_URL!);
  try {
    const { rows } = await db.execute({
      sql: "SELECT count(*) AS unsent FROM digests WHERE period_end_ms > ? AND status <> 'sent'",
      args: [Date.now()],
    });
    return Number(rows[0]!.unsent);
  } finally {
    db.close();
  }
}

async function digestMails(): Promise<ReceivedMail[]> {
  const all = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
  return all.filter((mail) => DIGEST_SUBJECT.test(mail.subject));
}

/** The counts a digest's text gives: counted enquiries, spam, suspect. */
function countsOf(text: string): { counted: number; spam: number; suspect: number } {
  const counted = /^(\d+) enquir(?:y|ies) this week so far/m.exec(text)?.[1] ?? (/^No enquiries this week so far/m.test(text) ? '0' : null);
  const apart = /^- spam (\d+), suspect (\d+) /m.exec(text);
  if (counted === null || !apart) throw new Error(`not a digest's text:\n${text}`);
  return { counted: Number(counted), spam: Number(apart[1]), suspect: Number(apart[2]) };
}

let serial = 0;
async function sendEnquiry(request: APIRequestContext, scenario: 'valid' | 'low-score', extra: Record<string, string> = {}) {
  serial += 1;
  const response = await request.post(`${productionSiteUrl}/api/contact`, {
    data: {
      name: 'Morag Visitor',
      email: `digest.${Date.now().toString(36)}${serial}@example.com`,
      phone: '',
      subject: `Digest check ${serial} ${Date.now()}`,
      message: 'Water through the kitchen ceiling since this morning.',
      recaptchaToken: recaptchaTestToken(scenario, `digest${serial}${Date.now()}`),
      ...extra,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test(
  'npm run digest -- --send mails the period so far with its counts through SMTP, once per period',
  { tag: '@smoke' },
  async ({ request }) => {
    test.setTimeout(120_000);
    // A digest of this period sent by an earlier run against the same database would make --send a no-op.
    const db = openTestDatabase(productionConfigEnv.DATABASE_URL!);
    await db.execute({ sql: 'DELETE FROM digests WHERE period_end_ms > ?', args: [Date.now()] });
    db.close();

    const before = countsOf(await digestCommand('--dry-run'));
    const mailsBefore = (await digestMails()).length;

    await sendEnquiry(request, 'valid', { damageType: 'water-damage', postcode: 'G67 1AB' });
    await sendEnquiry(request, 'valid');
    await sendEnquiry(request, 'valid', { website: 'https://spam.example' });
    await sendEnquiry(request, 'low-score');

    expect(await digestCommandEndToEnd('--send')).toMatch(
      /^Sent weekly:\d{4}-\d{2}-\d{2} to office@homecare\.test via smtp 127\.0\.0\.1:\d+: /m,
    );
    await expect.poll(async () => (await digestMails()).length, { timeout: 15_000 }).toBe(mailsBefore + 1);
    const mail = (await digestMails()).at(-1)!;
    expect(mail.to).toEqual([productionConfigEnv.ENQUIRY_TO]);
    const parsed = parseMail(mail.raw);
    expect(parsed.headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(parsed.headers['auto-submitted']).toBe('auto-generated');
    expect(countsOf(parsed.text)).toEqual({ counted: before.counted + 2, spam: before.spam + 1, suspect: before.suspect + 1 });
    expect(parsed.text).toMatch(/^NEEDS ACTION$/m);
    expect(parsed.text).not.toContain('kitchen ceiling');
    expect(parsed.text).not.toContain('@example.com');

    // Again in the same period: nothing is sent.
    expect(await digestCommand('--send')).toMatch(/^Nothing sent: the digest of weekly:\d{4}-\d{2}-\d{2} went out /m);
    // Nor does the server's schedule: the period's digest is recorded as sent.
    await expect.poll(unsentDigests, { message: 'the period’s digest is recorded as sent' }).toBe(0);
    expect(await digestMails()).toHaveLength(mailsBefore + 1);

    const health = (await (await request.get(`${productionSiteUrl}/api/health`)).json()) as { lastDigestAt: string | null };
    expect(health.lastDigestAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  },
);
