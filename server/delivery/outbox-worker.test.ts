import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { openDatabase } from '@/server/base/db';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createMailer, type Mailer } from '@/server/delivery/mailer';
import { createOutboxWorker, retryFailedJobs } from '@/server/delivery/outbox-worker';
import { enquiryReference } from '@/lib/enquiry-reference';
import { checkEnquiryHealth } from '@/server/reports/health';
import { parseMail } from '@/tests/support/mail-message';
import { freePort, startSmtpServer, tempDatabase } from '@/tests/support/enquiry-peers';
import { failingToRecordSends } from '@/tests/support/refusing-database';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

/** How long an attempt holds its job; past it another worker may take the job. */
const LEASE_MS = 2 * 60_000;

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '0141 496 0000', subject: 'Roof leak', message: 'Water is coming in.' };
const mail = { from: 'website@homecare.test', to: 'office@homecare.test' };

let db: Client;
let url: string;
let cleanup: () => void;
let clock: number;
const closers: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
  clock = Date.parse('2026-01-05T09:00:00Z');
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  cleanup();
});

const silent = () => undefined;

/** Submits an enquiry; acknowledgements are off unless asked for (most tests follow the company's notification). */
async function submit(
  body: Record<string, string> = valid,
  client: Client = db,
  env: Record<string, string> = { ENQUIRY_ACKNOWLEDGE: 'off' },
) {
  await submitEnquiry(client, body, { at: clock, config: loadEnquiryConfig(env) });
}

function worker(mailer: Mailer, client: Client = db, owner?: string, extra: Partial<Parameters<typeof createOutboxWorker>[0]> = {}) {
  const created = createOutboxWorker({ db: client, mailer, ...mail, pollMs: 60_000, now: () => clock, owner, log: silent, ...extra });
  closers.push(() => created.stop());
  return created;
}

async function jobs(client: Client = db) {
  return (await client.execute('SELECT status, attempts, last_error, message_id FROM enquiry_notifications ORDER BY id')).rows.map(
    (row) => ({
      ...row,
    }),
  );
}

describe('the outbox worker with a real SMTP server', () => {
  it('delivers a plain-text notification to ENQUIRY_TO from ENQUIRY_FROM with the visitor only in Reply-To', async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    await submit();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    expect(await worker(mailer).runOnce()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message!.from).toBe('website@homecare.test');
    expect(message!.to).toEqual(['office@homecare.test']);
    expect(message!.raw).toMatch(/^Reply-To: Jo Bloggs <jo@example\.com>$/m);
    expect(message!.raw).toMatch(/^To: office@homecare\.test$/m);
    expect(message!.raw).toMatch(new RegExp(`^Subject: Enquiry ${enquiryReference(1)}: Roof leak$`, 'm'));
    expect(message!.raw).toMatch(/^Content-Type: text\/plain/m);
    expect(message!.raw).toContain('Water is coming in.');
    expect(message!.raw).toContain('0141 496 0000');
    expect(await jobs()).toEqual([{ status: 'sent', attempts: 1, last_error: null, message_id: expect.stringContaining('enquiry-1.') }]);
    // Nothing left to do.
    expect(await worker(mailer).runOnce()).toBe(0);
  });

  it('SMTP down at submit time and back later: retried with backoff and delivered exactly once', async () => {
    const port = await freePort();
    await submit();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    const w = worker(mailer);

    expect(await w.runOnce()).toBe(1);
    expect(await jobs()).toEqual([
      { status: 'pending', attempts: 1, last_error: expect.stringMatching(/ECONNREFUSED|connect/i), message_id: null },
    ]);
    // Not due again before the backoff (30 s after the first failure).
    clock += 29_000;
    expect(await w.runOnce()).toBe(0);
    clock += 2_000;
    expect(await w.runOnce()).toBe(1);
    expect((await jobs())[0]).toMatchObject({ status: 'pending', attempts: 2 });

    const smtp = await startSmtpServer(port);
    closers.push(smtp.close);
    clock += 59_000;
    expect(await w.runOnce()).toBe(0);
    clock += 2_000;
    expect(await w.runOnce()).toBe(1);
    clock += 24 * 3600_000;
    expect(await w.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(await jobs()).toEqual([{ status: 'sent', attempts: 3, last_error: null, message_id: expect.any(String) }]);
  });

  it('a restart between commit and delivery: a new process (client and worker) delivers it', async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    await submit();
    db.close();

    // The "new process": a fresh connection to the same file and a new worker.
    const reopened = await openDatabase(url);
    db = reopened;
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    expect(await worker(mailer, reopened).runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
  });

  it('a worker that dies mid-send: its lease expires and another worker sends it, marked sent once', async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    await submit();
    const hanging: Mailer = { describe: 'hangs', send: () => new Promise(() => undefined), close: silent };
    // Never stopped: it stands for a process that died holding the lease.
    const dead = createOutboxWorker({ db, mailer: hanging, ...mail, pollMs: 60_000, now: () => clock, owner: 'dead-worker', log: silent });
    void dead.runOnce();
    await expect
      .poll(async () => (await db.execute('SELECT lease_owner FROM enquiry_notifications')).rows[0]?.lease_owner)
      .toBe('dead-worker');

    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    const successor = worker(mailer, db, 'successor');
    expect(await successor.runOnce()).toBe(0); // still leased
    clock += LEASE_MS + 1;
    expect(await successor.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(await jobs()).toEqual([{ status: 'sent', attempts: 2, last_error: null, message_id: expect.any(String) }]);
  });

  it("a worker whose lease expired mid-send does not mark the job: the successor's delivery is the one recorded", async () => {
    await submit();
    let finishSlow: (value: { messageId: string }) => void = () => undefined;
    const slow: Mailer = { describe: 'slow', send: () => new Promise((resolve) => (finishSlow = resolve)), close: silent };
    const fast: Mailer = { describe: 'fast', send: async () => ({ messageId: '<successor>' }), close: silent };
    const stale = createOutboxWorker({ db, mailer: slow, ...mail, pollMs: 60_000, now: () => clock, owner: 'stale', log: silent });
    const staleRun = stale.runOnce();
    await expect.poll(async () => (await db.execute('SELECT lease_owner FROM enquiry_notifications')).rows[0]?.lease_owner).toBe('stale');
    clock += LEASE_MS + 1;
    expect(await worker(fast, db, 'successor').runOnce()).toBe(1);
    finishSlow({ messageId: '<stale>' });
    await staleRun;
    expect(await jobs()).toEqual([{ status: 'sent', attempts: 2, last_error: null, message_id: '<successor>' }]);
  });

  it('two workers draining the same outbox send each job once', async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    for (let i = 0; i < 12; i += 1) await submit({ ...valid, message: `Enquiry number ${i}, water everywhere` });
    const second = await openDatabase(url);
    closers.push(() => second.close());
    const a = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    const b = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const [sentA, sentB] = await Promise.all([worker(a, db, 'a').runOnce(), worker(b, second, 'b').runOnce()]);
    expect(sentA + sentB).toBe(12);
    expect(smtp.received).toHaveLength(12);
    const bodies = new Set(smtp.received.map((m) => /Enquiry number (\d+)/.exec(m.raw)?.[1]));
    expect(bodies.size).toBe(12);
    expect((await jobs()).every((job) => job.status === 'sent' && job.attempts === 1)).toBe(true);
  });

  it('a permanent SMTP refusal marks the job failed; --retry-failed requeues it', async () => {
    await submit();
    const refusing: Mailer = {
      describe: 'refuses',
      send: async () => {
        throw Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 });
      },
      close: silent,
    };
    expect(await worker(refusing).runOnce()).toBe(1);
    expect((await jobs())[0]).toMatchObject({ status: 'failed', attempts: 1, last_error: '550 mailbox unavailable' });
    clock += 24 * 3600_000;
    expect(await worker(refusing).runOnce()).toBe(0);
    expect(await retryFailedJobs(db, clock)).toBe(1);
    expect((await jobs())[0]).toMatchObject({ status: 'pending', attempts: 0 });
  });
});

describe('without SMTP: .eml files in the outbox folder', () => {
  it('writes one complete message per enquiry', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'homecare-outbox-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    await submit();
    await submit({ ...valid, subject: 'Second enquiry' });
    expect(await worker(createMailer({ smtpUrl: null, outboxDir: dir })).runOnce()).toBe(2);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
    const first = readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(first).toMatch(/^To: office@homecare\.test$/m);
    expect(first).toMatch(/^Reply-To: Jo Bloggs <jo@example\.com>$/m);
    expect(first).toContain('Water is coming in.');
  });
});

describe('exactly once under faults', () => {
  it('a database error after the relay accepted a message never leads to a second send of it', async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    await submit();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    const { client, failing } = failingToRecordSends(db);
    const w = worker(mailer, client, 'only-worker', { sleep: () => new Promise((resolve) => setTimeout(resolve, 1)) });
    const round = w.runOnce();
    await expect.poll(() => failing.refused).toBeGreaterThanOrEqual(3);
    expect(smtp.received).toHaveLength(1);
    // Still failing, and the lease has run out so the job is claimable again: recorded, not resent.
    clock += LEASE_MS + 1;
    const refusedBefore = failing.refused;
    await expect.poll(() => failing.refused).toBeGreaterThan(refusedBefore + 2);
    expect(w.runOnce()).toBe(round);
    expect(smtp.received).toHaveLength(1);
    expect((await jobs())[0]).toMatchObject({ status: 'pending' });
    // The database is back: the send is recorded with the Message-ID the relay accepted.
    failing.on = false;
    expect(await round).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const messageId = /^Message-ID: (<[^>]+>)$/im.exec(smtp.received[0]!.raw)?.[1];
    expect(await jobs()).toEqual([{ status: 'sent', attempts: 1, last_error: null, message_id: messageId }]);
    expect(await w.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('a worker stopped while it cannot record a send gives up after a few tries, and the job stays claimable', async () => {
    await submit();
    const { client, failing } = failingToRecordSends(db);
    const sent: string[] = [];
    const mailer: Mailer = {
      describe: 'memory',
      send: async (message) => (sent.push(String(message.messageId)), { messageId: String(message.messageId) }),
      close: silent,
    };
    const w = worker(mailer, client, 'stopping', { sleep: () => new Promise((resolve) => setTimeout(resolve, 1)) });
    const round = w.runOnce();
    await expect.poll(() => failing.refused).toBeGreaterThanOrEqual(2);
    await w.stop();
    expect(await round).toBe(1);
    expect(failing.refused).toBeGreaterThanOrEqual(5);
    expect((await jobs())[0]).toMatchObject({ status: 'pending', message_id: null });
    // After the lease another worker sends it again, as the same message.
    failing.on = false;
    clock += LEASE_MS + 1;
    expect(await worker(mailer, db, 'next').runOnce()).toBe(1);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    expect((await jobs())[0]).toMatchObject({ status: 'sent', message_id: sent[0] });
  });

  it('a relay that refuses the login (535) pauses delivery: jobs stay pending, the pause is reported, and it resumes once the settings work', async () => {
    const smtp = await startSmtpServer(0, { login: { user: 'site', password: 'right' } });
    closers.push(smtp.close);
    await submit();
    await submit({ ...valid, subject: 'Second enquiry' });
    const wrong = createMailer({ smtpUrl: `smtp://site:wrong@127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => wrong.close());
    const pauses: string[] = [];
    const paused = worker(wrong, db, 'w', { onPause: (detail) => pauses.push(detail) });
    expect(await paused.runOnce()).toBe(1);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toMatch(/535|Invalid login/i);
    expect(paused.state().pausedUntil).toBe(clock + 60_000);
    expect((await jobs()).map((job) => [job.status, job.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    // While paused nothing is tried.
    expect(await paused.runOnce()).toBe(0);
    // The password is corrected (a restart with the right SMTP_URL) after the pause: both delivered, once.
    clock += 60_001;
    const right = createMailer({ smtpUrl: `smtp://site:right@127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => right.close());
    expect(await worker(right).runOnce()).toBe(2);
    expect(smtp.received).toHaveLength(2);
    expect((await jobs()).map((job) => [job.status, job.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('a message the relay refuses on its own merits (550) still fails permanently, without pausing', async () => {
    await submit();
    const refusing: Mailer = {
      describe: 'refuses',
      send: async () => {
        throw Object.assign(new Error('550 5.1.1 mailbox unavailable'), { responseCode: 550, code: 'EENVELOPE' });
      },
      close: silent,
    };
    const w = worker(refusing);
    await w.runOnce();
    expect((await jobs())[0]).toMatchObject({ status: 'failed' });
    expect(w.state().pausedUntil).toBeNull();
  });

  it('a started worker delivers at once when woken, and stop() ends it', async () => {
    const sent: string[] = [];
    const mailer: Mailer = {
      describe: 'memory',
      send: async (message) => {
        sent.push(String(message.subject));
        return { messageId: String(message.messageId) };
      },
      close: silent,
    };
    // A poll far longer than the test: only wake() can make it deliver.
    const w = worker(mailer, db, 'started', { pollMs: 3_600_000 });
    w.start();
    await submit();
    w.wake();
    await expect.poll(() => sent).toHaveLength(1);
    await submit({ ...valid, subject: 'Second enquiry' });
    w.wake();
    await expect.poll(() => sent).toHaveLength(2);
    await w.stop();
    await submit({ ...valid, subject: 'Third enquiry' });
    w.wake();
    expect(await w.runOnce()).toBe(0);
    expect((await jobs()).map((job) => job.status)).toEqual(['sent', 'sent', 'pending']);
  });

  it('stop() lets the message being sent finish and be recorded, and claims nothing more', async () => {
    for (let i = 0; i < 3; i += 1) await submit({ ...valid, subject: `Enquiry ${i}` });
    let release: () => void = silent;
    let started: () => void = silent;
    const sending = new Promise<void>((resolve) => (started = resolve));
    const slow: Mailer = {
      describe: 'slow',
      send: async () => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        return { messageId: '<slow@test>' };
      },
      close: silent,
    };
    const w = worker(slow);
    const round = w.runOnce();
    await sending;
    const stopping = w.stop();
    release();
    await stopping;
    await round;
    expect((await jobs()).map((job) => job.status)).toEqual(['sent', 'pending', 'pending']);
  });
});

describe('acknowledgements to the sender', () => {
  const claimDetails = {
    claimRole: 'homeowner',
    insurer: 'Example Mutual',
    claimReference: 'CLM-2026-0042',
    damageDate: '2026-01-02',
    damageType: 'water-damage',
    postcode: 'g67 1ab',
  };

  async function relay() {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    return { smtp, mailer };
  }

  it('sends the company its notification and the sender one fixed-text acknowledgement, exactly once', async () => {
    const { smtp, mailer } = await relay();
    const typed = { ...valid, phone: '07700 900123', subject: 'Ceiling fell in after the storm', message: 'Visit https://evil.test now' };
    await submit({ ...typed, ...claimDetails }, db, {});
    expect(await worker(mailer).runOnce()).toBe(2);
    expect(await worker(mailer).runOnce()).toBe(0);
    expect(smtp.received.map((message) => message.to)).toEqual([['office@homecare.test'], ['jo@example.com']]);

    const reference = enquiryReference(1);
    const notification = parseMail(smtp.received[0]!.raw);
    expect(notification.subject).toBe(`Enquiry ${reference}: Water damage: Ceiling fell in after the storm`);
    expect(notification.text).toMatch(/^Postcode of the property: +G67 1AB$/m);

    const acknowledgement = smtp.received[1]!;
    expect(acknowledgement.from).toBe('website@homecare.test');
    // Nothing the visitor typed, not even their name, in the To header or the body.
    expect(acknowledgement.raw).toMatch(/^To: jo@example\.com$/m);
    expect(acknowledgement.raw).toMatch(/^Reply-To: office@homecare\.test$/m);
    expect(acknowledgement.raw).toMatch(/^Auto-Submitted: auto-replied$/m);
    const parsed = parseMail(acknowledgement.raw);
    expect(parsed.subject).toBe(`We have your enquiry ${reference}: Example Homecare`);
    const body = parsed.text;
    expect(body.startsWith('Hello,\n')).toBe(true);
    expect(body).toContain(reference);
    expect(body).toContain('0141 496 0123');
    expect(body).toContain('Monday to Friday, 08:00 to 17:00');
    // Not the name, subject, message, phone or any claim detail.
    for (const text of ['Jo Bloggs', 'Ceiling fell', 'evil.test', '07700 900123', 'Example Mutual', 'CLM-2026-0042', 'G67 1AB'])
      expect(body).not.toContain(text);
    const kinds = (await db.execute('SELECT kind, status FROM enquiry_notifications ORDER BY id')).rows.map((row) => [
      row.kind,
      row.status,
    ]);
    expect(kinds).toEqual([
      ['notification', 'sent'],
      ['acknowledgement', 'sent'],
    ]);
  });

  it('an address that is not one plain address is never acknowledged; the enquiry still reaches the company and health stays green', async () => {
    const { smtp, mailer } = await relay();
    await submit({ ...valid, email: '"jo"@example.com' }, db, {});
    expect(await worker(mailer).runOnce()).toBe(2);
    expect(smtp.received.map((message) => message.to)).toEqual([['office@homecare.test']]);
    const acknowledgement = (await db.execute("SELECT status, last_error FROM enquiry_notifications WHERE kind = 'acknowledgement'"))
      .rows[0]!;
    expect(acknowledgement).toMatchObject({ status: 'failed', last_error: 'the sender’s e-mail is not one plain address' });
    const health = await checkEnquiryHealth(async () => db, { now: clock });
    expect(health).toMatchObject({ healthy: true, failedNotifications: 0, pendingNotifications: 0 });
  });
});

describe('urgent enquiries first', () => {
  /** A relay that records the subjects in the order it is given them. */
  function recorder() {
    const subjects: string[] = [];
    const mailer: Mailer = {
      describe: 'records',
      send: async (message) => {
        subjects.push(String(message.subject));
        return { messageId: `<m${subjects.length}>` };
      },
      close: silent,
    };
    return { subjects, mailer };
  }

  it('an urgent notification goes out before ordinary ones queued ahead of it, whatever their age', async () => {
    // Two ordinary enquiries wait (the worker is not running), the older one a minute longer.
    await submit({ ...valid, subject: 'First ordinary' });
    clock += 60_000;
    await submit({ ...valid, subject: 'Second ordinary', email: 'sam@example.com' });
    clock += 1_000;
    await submit({ ...valid, subject: 'Ceiling coming down', email: 'ann@example.com', worsening: 'yes', damageType: 'water-damage' });
    await submit({ ...valid, subject: 'Not sure is not urgent', email: 'kim@example.com', habitable: 'not-sure' });
    // Through a real SMTP server, in the order it receives them.
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    expect(await worker(mailer).runOnce()).toBe(4);
    const subjects = smtp.received.map((message) => /^Subject: (.*)$/m.exec(message.raw)?.[1]);
    expect(parseMail(smtp.received[0]!.raw).text.split('\n').slice(0, 2)).toEqual([
      'URGENT: call back first.',
      '- The damage is still getting worse.',
    ]);
    expect(subjects).toEqual([
      `URGENT: Enquiry ${enquiryReference(3)}: Water damage: Ceiling coming down`,
      `Enquiry ${enquiryReference(1)}: First ordinary`,
      `Enquiry ${enquiryReference(2)}: Second ordinary`,
      `Enquiry ${enquiryReference(4)}: Not sure is not urgent`,
    ]);
  });

  it('urgent ones among themselves, and acknowledgements, keep the oldest-first order; a job not yet due still waits', async () => {
    await submit({ ...valid, subject: 'Ordinary one' }, db, {});
    clock += 1_000;
    await submit({ ...valid, subject: 'Nobody can stay tonight', email: 'ann@example.com', habitable: 'no' }, db, {});
    clock += 1_000;
    await submit({ ...valid, subject: 'Grandmother lives there', email: 'kim@example.com', vulnerable: 'yes' }, db, {});
    // The first urgent notification failed once and is not due for a while.
    await db.execute(
      "UPDATE enquiry_notifications SET next_attempt_ms = next_attempt_ms + 600000 WHERE enquiry_id = 2 AND kind = 'notification'",
    );
    const { subjects, mailer } = recorder();
    await worker(mailer).runOnce();
    expect(subjects.slice(0, 1)).toEqual([`URGENT: Enquiry ${enquiryReference(3)}: Grandmother lives there`]);
    // Then the rest, oldest due first: notification 1, its acknowledgement, and the acknowledgements of 2 and 3.
    expect(subjects.slice(1).every((subject) => !subject.startsWith('URGENT'))).toBe(true);
    expect(subjects).toHaveLength(5);
    expect(subjects[1]).toBe(`Enquiry ${enquiryReference(1)}: Ordinary one`);
  });
});
