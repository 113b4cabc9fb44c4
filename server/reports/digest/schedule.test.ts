import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import type Mail from 'nodemailer/lib/mailer';
import { parseConfig } from '@/server/base/config.mjs';
import { openDatabase } from '@/server/base/db';
import { createDigestSender, digestSettings, startDigestSchedule } from '@/server/reports/digest/schedule';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { checkEnquiryHealth, publicHealth } from '@/server/reports/health';
import type { Mailer } from '@/server/delivery/mailer';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { digestStartedAt, submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { failingToRecordSends } from '@/tests/support/refusing-database';

/** The Message-ID of the weekly digest of the week starting `date`: the same for every attempt. */
const weeklyMessageId = (date: string) => `<digest-weekly-${date}@homecare-web.invalid>`;

const at = (iso: string) => Date.parse(iso);
const quiet = () => undefined;

let db: Client;
let url: string;
let dir: string;
let cleanup: () => void;
const others: Client[] = [];
beforeEach(async () => {
  ({ db, url, dir, cleanup } = await tempDatabase());
  await digestStartedAt(db, '2026-10-01T00:00:00.000Z');
});
afterEach(() => {
  for (const client of others.splice(0)) client.close();
  cleanup();
});

/** A mailer that keeps what it is given; `delayMs` widens the window in which two processes could race. */
function recordingMailer(sent: Mail.Options[], delayMs = 0): Mailer {
  return {
    describe: 'memory',
    async send(message) {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      sent.push(message);
      return { messageId: String(message.messageId) };
    },
    close: quiet,
  };
}

function sender(client: Client, mailer: Mailer, clock: () => number, extra: Partial<Parameters<typeof createDigestSender>[0]> = {}) {
  return createDigestSender({
    db: client,
    mailer,
    from: 'site@homecare.test',
    to: 'owner@homecare.test',
    mode: 'weekly',
    now: clock,
    log: quiet,
    ...extra,
  });
}

async function rows() {
  return (
    await db.execute('SELECT period_key, status, attempts, trigger, covers_from_ms, covers_to_ms FROM digests ORDER BY period_end_ms')
  ).rows.map((row) => ({ ...row }));
}

describe('the digest goes out once per period', () => {
  it('sends the week that has ended at Monday 08:00, once; a second run in the same period sends nothing', async () => {
    const sent: Mail.Options[] = [];
    let now = at('2026-11-23T07:59:00Z');
    const one = sender(db, recordingMailer(sent), () => now);
    // Before 08:00 the week due is the one that ended on the 16th.
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-09' }]);
    expect(sent.map((message) => message.messageId)).toEqual([weeklyMessageId('2026-11-09')]);
    now = at('2026-11-23T08:00:00Z');
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-16' }]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({
      to: 'owner@homecare.test',
      from: 'site@homecare.test',
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    expect(String(sent[1]!.subject)).toMatch(/^Website weekly digest 16 Nov to 23 Nov: /);
    now = at('2026-11-27T12:00:00Z');
    expect(await one.runDue()).toEqual([]);
    // A restarted process (a new sender on a new connection) finds the period sent.
    const restarted = await openDatabase(url);
    others.push(restarted);
    expect(await sender(restarted, recordingMailer(sent), () => now).runDue()).toEqual([]);
    expect(sent).toHaveLength(2);
    expect((await rows()).map((row) => [row.period_key, row.status, row.attempts])).toEqual([
      ['weekly:2026-11-09', 'sent', 1],
      ['weekly:2026-11-16', 'sent', 1],
    ]);
  });

  it('sends nothing for a period that ended before the digest started (a new site)', async () => {
    await digestStartedAt(db, '2026-11-25T10:00:00.000Z');
    const sent: Mail.Options[] = [];
    let now = at('2026-11-25T10:05:00Z');
    const one = sender(db, recordingMailer(sent), () => now);
    expect(await one.runDue()).toEqual([]);
    now = at('2026-11-30T08:00:10Z');
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-23' }]);
  });

  it('with two processes racing over one database file, each period is sent exactly once', async () => {
    const sent: Mail.Options[] = [];
    const clients = await Promise.all([openDatabase(url), openDatabase(url), openDatabase(url)]);
    others.push(...clients);
    let now = 0;
    const senders = clients.map((client) => sender(client, recordingMailer(sent, 15), () => now));
    for (const monday of ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30']) {
      now = at(`${monday}T08:00:05Z`);
      // Every process checks at the same moment, twice over.
      await Promise.all([...senders, ...senders].map((one) => one.runDue()));
    }
    const ids = sent.map((message) => message.messageId);
    expect(ids).toEqual([...new Set(ids)]);
    expect(ids).toEqual(['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'].map(weeklyMessageId));
    expect((await rows()).every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('two `npm run digest -- --send` processes at once send one digest; a third sends nothing', async () => {
    const outbox = path.join(dir, 'outbox');
    const env = {
      DATABASE_URL: url,
      ENQUIRY_OUTBOX_DIR: outbox,
      ENQUIRY_PHOTOS_DIR: path.join(dir, 'photos'),
      ENQUIRY_TO: 'owner@homecare.test',
      SMTP_URL: '',
    };
    await submitEnquiryAt(db, Date.now() - 1000);
    const [first, second] = await Promise.all([
      runToEnd(spawnTs('scripts/digest.ts', ['--send'], env)),
      runToEnd(spawnTs('scripts/digest.ts', ['--send'], env)),
    ]);
    expect([first.code, second.code], first.stderr + second.stderr).toEqual([0, 0]);
    const said = [...first.lines, ...second.lines].filter((line) => !line.startsWith('[digest]'));
    expect(said.filter((line) => line.startsWith('Sent weekly:'))).toHaveLength(1);
    expect(said.filter((line) => line.startsWith('Nothing sent:'))).toHaveLength(1);
    const files = readdirSync(outbox).filter((name) => name.startsWith('digest-weekly-'));
    expect(files).toHaveLength(1);
    const message = readFileSync(path.join(outbox, files[0]!), 'utf8');
    expect(message).toMatch(/^To: owner@homecare\.test$/m);
    expect(message).toContain('1 enquiry this week so far');
    expect(message).toMatch(/^Content-Type: multipart\/alternative/m);
    const third = await runToEnd(spawnTs('scripts/digest.ts', ['--send'], env));
    expect(third.code).toBe(0);
    expect(third.lines.join('\n')).toMatch(/^Nothing sent: the digest of weekly:\d{4}-\d{2}-\d{2} went out /m);
    expect(readdirSync(outbox).filter((name) => name.startsWith('digest-'))).toHaveLength(1);
  }, 30_000);

  it('after weeks down, sends only the latest period that ended, once', async () => {
    const sent: Mail.Options[] = [];
    let now = at('2026-10-05T08:01:00Z');
    await sender(db, recordingMailer(sent), () => now).runDue();
    expect(sent.map((message) => message.messageId)).toEqual([weeklyMessageId('2026-09-28')]);
    // The site is off from 6 October to Wednesday 4 November.
    now = at('2026-11-04T15:00:00Z');
    const back = sender(db, recordingMailer(sent), () => now);
    expect(await back.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-10-26' }]);
    expect(await back.runDue()).toEqual([]);
    expect(sent).toHaveLength(2);
    expect((await rows()).map((row) => row.period_key)).toEqual(['weekly:2026-09-28', 'weekly:2026-10-26']);
  });

  it('when the clock jumps back, sends no earlier period again, nor one it skipped; forward, only the latest', async () => {
    const sent: Mail.Options[] = [];
    let now = at('2026-11-30T08:00:30Z');
    const one = sender(db, recordingMailer(sent), () => now);
    await one.runDue();
    expect(sent).toHaveLength(1);
    now = at('2026-11-16T09:00:00Z'); // two weeks back: 9 Nov's week was never sent, and is not now
    expect(await one.runDue()).toEqual([]);
    now = at('2026-11-30T07:30:00Z'); // just before the boundary again
    expect(await one.runDue()).toEqual([]);
    now = at('2026-12-21T08:00:00Z'); // three weeks forward
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-12-14' }]);
    expect(sent.map((message) => message.messageId)).toEqual([weeklyMessageId('2026-11-23'), weeklyMessageId('2026-12-14')]);
  });

  it('when a process dies mid-send, another sends the digest once its lease has passed, not before', async () => {
    let now = at('2026-11-23T08:00:30Z');
    const hung: Mailer = { describe: 'hung', send: () => new Promise(quiet), close: quiet };
    const dying = sender(db, hung, () => now);
    void dying.runDue();
    await expect.poll(async () => (await rows())[0]?.attempts).toBe(1);
    const sent: Mail.Options[] = [];
    const other = await openDatabase(url);
    others.push(other);
    const survivor = sender(other, recordingMailer(sent), () => now);
    expect(await survivor.runDue()).toEqual([]);
    now += 5 * 60_000 + 1000;
    expect(await survivor.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-16' }]);
    expect(await survivor.runDue()).toEqual([]);
    expect(sent).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a send the database cannot record is tried again after its lease, with the same Message-ID', { timeout: 20_000 }, async () => {
    let now = at('2026-11-23T08:00:30Z');
    const { client: unrecordable, failing: refusing } = failingToRecordSends(db);
    const sent: Mail.Options[] = [];
    const one = sender(unrecordable, recordingMailer(sent), () => now);
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-16' }]);
    expect(refusing.refused).toBe(5);
    expect(await rows()).toMatchObject([{ period_key: 'weekly:2026-11-16', status: 'pending', attempts: 1 }]);
    // Within its lease nobody sends it again.
    expect(await one.runDue()).toEqual([]);
    refusing.on = false;
    now += 5 * 60_000 + 1000;
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-16' }]);
    expect(sent.map((message) => message.messageId)).toEqual([weeklyMessageId('2026-11-16'), weeklyMessageId('2026-11-16')]);
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('retries a failed send with backoff, and gives up on a permanent refusal', async () => {
    let now = at('2026-11-23T08:00:30Z');
    let answer: Error | null = new Error('connect ECONNREFUSED');
    const sent: Mail.Options[] = [];
    const flaky: Mailer = {
      describe: 'flaky',
      async send(message) {
        if (answer) throw answer;
        sent.push(message);
        return { messageId: String(message.messageId) };
      },
      close: quiet,
    };
    const one = sender(db, flaky, () => now);
    expect(await one.runDue()).toMatchObject([{ result: 'will-retry', key: 'weekly:2026-11-16' }]);
    expect(await one.runDue()).toEqual([]);
    now += 61_000;
    answer = null;
    expect(await one.runDue()).toMatchObject([{ result: 'sent' }]);
    expect(sent).toHaveLength(1);

    now = at('2026-11-30T08:00:30Z');
    answer = Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 });
    expect(await one.runDue()).toMatchObject([{ result: 'failed', key: 'weekly:2026-11-23' }]);
    now += 24 * 60 * 60_000;
    expect(await one.runDue()).toEqual([]);
  });

  it('`--send` during a week is that week’s digest: the schedule does not send it again, and the next starts where it stopped', async () => {
    const sent: Mail.Options[] = [];
    let now = at('2026-11-25T14:00:00Z');
    await submitEnquiryAt(db, at('2026-11-24T10:00:00Z'));
    await db.execute(`UPDATE enquiry_notifications SET status = 'sent'`);
    const one = sender(db, recordingMailer(sent), () => now);
    expect(await one.sendCurrent()).toMatchObject({ result: 'sent', key: 'weekly:2026-11-23' });
    expect(String(sent[0]!.subject)).toBe('Website weekly digest 23 Nov to Wed 25 Nov 14:00 (so far): 1 enquiry');
    expect(await one.sendCurrent()).toMatchObject({ result: 'already-sent', key: 'weekly:2026-11-23' });
    await submitEnquiryAt(db, at('2026-11-26T10:00:00Z'));
    await db.execute(`UPDATE enquiry_notifications SET status = 'sent'`);
    now = at('2026-11-30T08:00:30Z');
    // The week of 23 Nov has had its digest: none at its end.
    expect(await one.runDue()).toEqual([]);
    now = at('2026-12-07T08:00:30Z');
    expect(await one.runDue()).toMatchObject([{ result: 'sent', key: 'weekly:2026-11-30' }]);
    // It counts the enquiry of Thursday 26 November, which came after the early digest.
    expect(String(sent[1]!.subject)).toBe('Website weekly digest 25 Nov to 7 Dec: 1 enquiry');
    expect((await rows()).map((row) => [row.period_key, row.trigger, row.covers_from_ms, row.covers_to_ms])).toEqual([
      ['weekly:2026-11-23', 'command', at('2026-11-23T08:00:00Z'), at('2026-11-25T14:00:00Z')],
      ['weekly:2026-11-30', 'schedule', at('2026-11-25T14:00:00Z'), at('2026-12-07T08:00:00Z')],
    ]);
  });

  it('the schedule runs in the server beside the outbox worker and stops cleanly', async () => {
    const sent: Mail.Options[] = [];
    const schedule = startDigestSchedule(
      sender(db, recordingMailer(sent), () => at('2026-11-23T08:00:30Z')),
      { tickMs: 10 },
    );
    await expect.poll(() => sent.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await schedule.stop();
    expect(sent).toHaveLength(1);
  });

  it('npm run health and /api/health say when the last digest went out', async () => {
    expect((await checkEnquiryHealth(async () => db)).lastDigestAt).toBeNull();
    await sender(db, recordingMailer([]), () => at('2026-11-23T08:00:30Z')).runDue();
    const health = await checkEnquiryHealth(async () => db);
    expect(health.lastDigestAt).toBe('2026-11-23T08:00:30.000Z');
    expect(publicHealth(health).body).toEqual({ status: 'ok', problems: [], lastDigestAt: '2026-11-23T08:00:30.000Z' });
    const printed = await runToEnd(spawnTs('scripts/health.ts', [], { DATABASE_URL: url }));
    expect(printed.lines.join('\n')).toMatch(/^last digest: +2026-11-23T08:00:30\.000Z \(weekly\)$/m);
  }, 30_000);
});

describe('ENQUIRY_DIGEST and ENQUIRY_DIGEST_TO', () => {
  it('is weekly by default, to ENQUIRY_TO; daily or off when set; anything else is refused', () => {
    expect(digestSettings(loadEnquiryConfig({ ENQUIRY_TO: 'office@homecare.test' }))).toMatchObject({
      mode: 'weekly',
      to: 'office@homecare.test',
    });
    expect(
      digestSettings(
        loadEnquiryConfig({ ENQUIRY_DIGEST: 'Daily', ENQUIRY_TO: 'office@homecare.test', ENQUIRY_DIGEST_TO: 'owner@homecare.test' }),
      ),
    ).toMatchObject({
      mode: 'daily',
      to: 'owner@homecare.test',
    });
    expect(parseConfig({ ENQUIRY_DIGEST: 'off' }).enquiries.digest).toBe('off');
    expect(() => parseConfig({ ENQUIRY_DIGEST: 'monthly' })).toThrow(/ENQUIRY_DIGEST: must be weekly, daily or off/);
    expect(() => parseConfig({ ENQUIRY_DIGEST_TO: 'a@b.test, c@d.test' })).toThrow(/ENQUIRY_DIGEST_TO/);
  });
});
