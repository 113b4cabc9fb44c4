// Photos that reach a stored enquiry after its notification went out (a retried upload, a resend after
// a lost response) reach the company in one follow-up, exactly once; before that, they ride with it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Mail from 'nodemailer/lib/mailer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, claimOfToken } from '@/server/claims/claim-links';
import { openDatabase } from '@/server/base/db';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { checkEnquiryHealth } from '@/server/reports/health';
import { createMailer, removeSavedMessages, type Mailer } from '@/server/delivery/mailer';
import { createOutboxWorker, retryFailedJobs } from '@/server/delivery/outbox-worker';
import { storeEnquiry, type NewEnquiry } from '@/server/ledger/enquiry-store';
import { startSmtpServer, tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';
import { multipartRequest } from '@/tests/support/multipart-request';
import { phonePhoto } from '@/tests/support/photo-fixtures';
import { newEnquiry, photoToStore } from '@/tests/support/stored-enquiry';

/** How long an attempt holds its job, and how long a follow-up waits for its notification. */
const LEASE_MS = 2 * 60_000;
const FOLLOW_UP_WAIT_MS = 30_000;

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Ceiling down', message: 'The kitchen ceiling came down.' };
const reference = enquiryReference(1);

let db: Client;
let url: string;
let cleanup: () => void;
let photosRoot: string;
let clock: number;
const closers: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
  photosRoot = mkdtempSync(path.join(tmpdir(), 'homecare-follow-up-'));
  clock = Date.parse('2026-01-05T09:00:00Z');
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  cleanup();
  rmSync(photosRoot, { recursive: true, force: true });
});

const silent = () => undefined;

/** A photo as the store gets it (already re-encoded): its bytes tell it apart. */
const photo = (position: number, seed: number) => photoToStore(Buffer.alloc(1000 + position, seed), `IMG_${position}.jpg`);

/** The same enquiry from the same client (a retry), with these photos. */
function store(photos: NewEnquiry['photos'] = [], client: Client = db) {
  return storeEnquiry(client, newEnquiry({ ...valid, photos }), clock, { photosRoot });
}

/** A mailer that keeps what it was given; `hold` makes the next send wait until released. */
function memoryMailer() {
  const sent: Mail.Options[] = [];
  let gate: { started: () => void; wait: Promise<void> } | null = null;
  const mailer: Mailer = {
    describe: 'memory',
    async send(message) {
      const held = gate;
      gate = null;
      if (held) {
        held.started();
        await held.wait;
      }
      sent.push(message);
      return { messageId: String(message.messageId) };
    },
    close: silent,
  };
  /** Holds the next send; resolves `started` once it is under way (its photos read), sends on `release`. */
  function hold() {
    let release: () => void = silent;
    let started: () => void = silent;
    const wait = new Promise<void>((resolve) => (release = resolve));
    const begun = new Promise<void>((resolve) => (started = resolve));
    gate = { started, wait };
    return { started: begun, release };
  }
  return { sent, mailer, hold };
}

function worker(mailer: Mailer, client: Client = db, owner?: string) {
  const created = createOutboxWorker({
    db: client,
    mailer,
    from: 'website@homecare.test',
    to: 'office@homecare.test',
    pollMs: 60_000,
    now: () => clock,
    owner,
    photosRoot,
    log: silent,
  });
  closers.push(() => created.stop());
  return created;
}

const jobs = async (client: Client = db) =>
  (await client.execute('SELECT kind, status, attempts FROM enquiry_notifications ORDER BY id')).rows.map((row) => ({ ...row }));
const attachmentsOf = (message: Mail.Options) =>
  (message.attachments ?? []).map((attachment) => [attachment.filename, (attachment.content as Buffer).length]);
const followUps = (sent: readonly Mail.Options[]) => sent.filter((message) => message.subject === `More photos for ${reference}`);

describe('photos that arrive after the notification went out', () => {
  it('are sent once, in a follow-up "More photos for HC-…" that attaches them and names the enquiry', async () => {
    const { sent, mailer } = memoryMailer();
    expect(await store()).toMatchObject({ id: 1, duplicate: false });
    expect(await worker(mailer).runOnce()).toBe(1);
    expect(attachmentsOf(sent[0]!)).toEqual([]);

    clock += 60_000;
    expect(await store([photo(1, 11), photo(2, 12)])).toEqual({ id: 1, reference, duplicate: true });
    expect(await jobs()).toEqual([
      { kind: 'notification', status: 'sent', attempts: 1 },
      { kind: 'photos', status: 'pending', attempts: 0 },
    ]);
    expect(await worker(mailer).runOnce()).toBe(1);
    expect(sent).toHaveLength(2);
    const [followUp] = followUps(sent);
    expect(followUp).toBeDefined();
    expect(followUp!.to).toBe('office@homecare.test');
    expect(followUp!.attachments?.map((attachment) => attachment.filename)).toEqual(['photo-1.jpg', 'photo-2.jpg']);
    expect((followUp!.attachments![0]!.content as Buffer).equals(photo(1, 11).bytes)).toBe(true);
    expect((followUp!.attachments![1]!.content as Buffer).equals(photo(2, 12).bytes)).toBe(true);
    const body = String(followUp!.text);
    expect(body).toContain(`Reference: ${reference}`);
    expect(body).toMatch(/^Name: +Jo Bloggs$/m);
    expect(body).toMatch(/^Subject: +Ceiling down$/m);
    expect(body).toContain('came after the first notification');
    expect(await jobs()).toEqual([
      { kind: 'notification', status: 'sent', attempts: 1 },
      { kind: 'photos', status: 'sent', attempts: 1 },
    ]);

    clock += 24 * 3600_000;
    expect(await worker(mailer).runOnce()).toBe(0);
    expect(sent).toHaveLength(2);
  });

  it("leave the claim's status and staff links, already e-mailed, opening the claim", async () => {
    expect(await store()).toMatchObject({ id: 1, duplicate: false });
    const status = (await claimLinkToken(db, 'status', 1))!;
    const staff = (await claimLinkToken(db, 'update', 1))!;
    const folderBefore = (await db.execute('SELECT submission_key FROM enquiries WHERE id = 1')).rows[0]?.submission_key;

    clock += 60_000;
    expect(await store([photo(1, 11)])).toEqual({ id: 1, reference, duplicate: true });
    expect((await db.execute('SELECT submission_key FROM enquiries WHERE id = 1')).rows[0]?.submission_key).not.toBe(folderBefore);
    expect(await claimOfToken(db, 'status', status)).toBe(1);
    expect(await claimOfToken(db, 'update', staff)).toBe(1);
    expect(await claimLinkToken(db, 'status', 1)).toBe(status);
  });

  it('before the notification was sent they ride with it: no follow-up', async () => {
    const { sent, mailer } = memoryMailer();
    await store();
    clock += 5_000;
    expect(await store([photo(1, 21), photo(2, 22)])).toMatchObject({ id: 1, duplicate: true });
    expect(await jobs()).toEqual([{ kind: 'notification', status: 'pending', attempts: 0 }]);
    expect(await worker(mailer).runOnce()).toBe(1);
    expect(sent).toHaveLength(1);
    expect(attachmentsOf(sent[0]!)).toEqual([
      ['photo-1.jpg', 1001],
      ['photo-2.jpg', 1002],
    ]);
    expect(String(sent[0]!.text)).toContain('Photos: 2, attached.');
    expect(await jobs()).toEqual([{ kind: 'notification', status: 'sent', attempts: 1 }]);
  });

  it('while the notification is being sent (its photos already read) they follow it, after it', async () => {
    const { sent, mailer, hold } = memoryMailer();
    await store();
    const held = hold();
    const round = worker(mailer).runOnce();
    await held.started;
    clock += 1_000;
    await store([photo(1, 31)]);
    held.release();
    expect(await round).toBe(2);
    expect(sent.map((message) => [message.subject, attachmentsOf(message)])).toEqual([
      [`Enquiry ${reference}: Ceiling down`, []],
      [`More photos for ${reference}`, [['photo-1.jpg', 1001]]],
    ]);
  });

  it('a second and third resend with photos queue no second follow-up and change no photo', async () => {
    const { sent, mailer } = memoryMailer();
    await store();
    await worker(mailer).runOnce();
    clock += 60_000;
    await store([photo(1, 41)]);
    clock += 60_000;
    await store([photo(1, 42), photo(2, 43)]);
    expect(await jobs()).toEqual([
      { kind: 'notification', status: 'sent', attempts: 1 },
      { kind: 'photos', status: 'pending', attempts: 0 },
    ]);
    expect(await worker(mailer).runOnce()).toBe(1);
    clock += 60_000;
    await store([photo(1, 44)]);
    expect(await worker(mailer).runOnce()).toBe(0);
    expect(followUps(sent)).toHaveLength(1);
    expect(attachmentsOf(followUps(sent)[0]!)).toEqual([['photo-1.jpg', 1001]]);
    expect((followUps(sent)[0]!.attachments![0]!.content as Buffer)[0]).toBe(41);
    expect((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'photos'")).rows[0]?.n).toBe(1);
    expect((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n).toBe(1);
  });

  it('a batch that fails at the follow-up keeps neither it nor the photos; the next try keeps both', async () => {
    const { mailer } = memoryMailer();
    await store();
    await worker(mailer).runOnce();
    // The same file, except that the statement queueing the follow-up fails (as a crash would stop it).
    const isFollowUp = (statement: { sql: string; args?: unknown }) =>
      statement.sql.startsWith('INSERT INTO "enquiry_notifications"') && Array.isArray(statement.args) && statement.args.includes('photos');
    const failing = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'batch')
          return (statements: { sql: string; args?: unknown }[], mode: Parameters<Client['batch']>[1]) =>
            target.batch(
              statements.map((statement) =>
                isFollowUp(statement) ? { sql: 'INSERT INTO no_such_table VALUES (1)', args: [] } : statement,
              ) as Parameters<Client['batch']>[0],
              mode,
            );
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    clock += 60_000;
    await expect(store([photo(1, 51)], failing)).rejects.toThrow();
    expect((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n).toBe(0);
    expect(await jobs()).toEqual([{ kind: 'notification', status: 'sent', attempts: 1 }]);

    await store([photo(1, 52)]);
    expect((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n).toBe(1);
    expect(await jobs()).toEqual([
      { kind: 'notification', status: 'sent', attempts: 1 },
      { kind: 'photos', status: 'pending', attempts: 0 },
    ]);
  });
  it('without SMTP the follow-up is saved as photos-<id>….eml, and goes with its enquiry under retention and erasure', async () => {
    const outboxDir = path.join(photosRoot, 'outbox');
    const mailer = createMailer({ smtpUrl: null, outboxDir });
    await store();
    await worker(mailer).runOnce();
    clock += 60_000;
    await store([photo(1, 91)]);
    expect(await worker(mailer).runOnce()).toBe(1);
    expect(readdirSync(outboxDir).sort()).toEqual([expect.stringMatching(/^enquiry-1\./), expect.stringMatching(/^photos-1\./)]);
    expect(await removeSavedMessages(outboxDir, [1])).toBe(2);
    expect(readdirSync(outboxDir)).toEqual([]);
  });
});

describe('exactly once across a restart', () => {
  it('a worker stopped after claiming the notification: the new process sends it without the photos, then the follow-up with them, once each', async () => {
    await store();
    // The first process claims the notification and stops before it is sent or recorded.
    const stuck: Mailer = { describe: 'stuck', send: () => new Promise(() => undefined), close: silent };
    void createOutboxWorker({
      db,
      mailer: stuck,
      from: 'w@x.test',
      to: 'o@x.test',
      pollMs: 60_000,
      now: () => clock,
      owner: 'first',
      photosRoot,
      log: silent,
    }).runOnce();
    await expect.poll(async () => (await db.execute('SELECT lease_owner FROM enquiry_notifications')).rows[0]?.lease_owner).toBe('first');
    clock += 1_000;
    await store([photo(1, 61), photo(2, 62)]);

    // The new process: a fresh connection to the same file and a new worker.
    const second = await openDatabase(url);
    closers.push(() => second.close());
    const { sent, mailer } = memoryMailer();
    const successor = worker(mailer, second, 'second');
    // The follow-up is due, but its notification is still leased: it waits, its attempt given back.
    expect(await successor.runOnce()).toBe(1);
    expect(sent).toEqual([]);
    expect(await jobs(second)).toEqual([
      { kind: 'notification', status: 'pending', attempts: 1 },
      { kind: 'photos', status: 'pending', attempts: 0 },
    ]);

    clock += LEASE_MS + 1;
    expect(await successor.runOnce()).toBe(2);
    expect(sent.map((message) => [message.subject, attachmentsOf(message)])).toEqual([
      [`Enquiry ${reference}: Ceiling down`, []],
      [
        `More photos for ${reference}`,
        [
          ['photo-1.jpg', 1001],
          ['photo-2.jpg', 1002],
        ],
      ],
    ]);
    expect(String(sent[0]!.text)).toContain('Photos: 2, sent while this e-mail was on its way; they follow in a separate e-mail.');
    clock += 24 * 3600_000;
    expect(await worker(mailer, second).runOnce()).toBe(0);
    expect(sent).toHaveLength(2);
    expect(await jobs(second)).toEqual([
      { kind: 'notification', status: 'sent', attempts: 2 },
      { kind: 'photos', status: 'sent', attempts: 1 },
    ]);
  });

  it('a worker stopped after claiming the follow-up: its lease runs out and the new process sends it once', async () => {
    const { sent, mailer } = memoryMailer();
    await store();
    await worker(mailer).runOnce();
    clock += 60_000;
    await store([photo(1, 71)]);
    const stuck: Mailer = { describe: 'stuck', send: () => new Promise(() => undefined), close: silent };
    void createOutboxWorker({
      db,
      mailer: stuck,
      from: 'w@x.test',
      to: 'o@x.test',
      pollMs: 60_000,
      now: () => clock,
      owner: 'first',
      photosRoot,
      log: silent,
    }).runOnce();
    await expect
      .poll(async () => (await db.execute("SELECT lease_owner FROM enquiry_notifications WHERE kind = 'photos'")).rows[0]?.lease_owner)
      .toBe('first');

    const second = await openDatabase(url);
    closers.push(() => second.close());
    expect(await worker(mailer, second, 'second').runOnce()).toBe(0);
    clock += LEASE_MS + 1;
    expect(await worker(mailer, second, 'second').runOnce()).toBe(1);
    clock += FOLLOW_UP_WAIT_MS + LEASE_MS + 1;
    expect(await worker(mailer, second, 'third').runOnce()).toBe(0);
    expect(followUps(sent)).toHaveLength(1);
    expect(attachmentsOf(followUps(sent)[0]!)).toEqual([['photo-1.jpg', 1001]]);
    expect(await jobs(second)).toEqual([
      { kind: 'notification', status: 'sent', attempts: 1 },
      { kind: 'photos', status: 'sent', attempts: 2 },
    ]);
  });
});

describe('when the notification fails', () => {
  it('its follow-up fails with it and shows in the health check; --retry-failed sends the notification, then the follow-up', async () => {
    await store();
    let release: () => void = silent;
    let started: () => void = silent;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const refusing: Mailer = {
      describe: 'refuses',
      send: async () => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        throw Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 });
      },
      close: silent,
    };
    const round = worker(refusing).runOnce();
    await begun;
    await store([photo(1, 81)]);
    release();
    expect(await round).toBe(2);
    expect(
      (await db.execute('SELECT kind, status, last_error FROM enquiry_notifications ORDER BY id')).rows.map((row) => ({ ...row })),
    ).toEqual([
      { kind: 'notification', status: 'failed', last_error: '550 mailbox unavailable' },
      { kind: 'photos', status: 'failed', last_error: 'its notification has not gone out (requeue both with --retry-failed)' },
    ]);
    expect(await checkEnquiryHealth(async () => db, { now: clock })).toMatchObject({ healthy: false, failedNotifications: 2 });

    expect(await retryFailedJobs(db, clock)).toBe(2);
    const { sent, mailer } = memoryMailer();
    expect(await worker(mailer).runOnce()).toBe(2);
    expect(sent.map((message) => [message.subject, attachmentsOf(message)])).toEqual([
      [`Enquiry ${reference}: Ceiling down`, []],
      [`More photos for ${reference}`, [['photo-1.jpg', 1001]]],
    ]);
  });
});

describe('through the contact form and a real SMTP server', () => {
  it('a resend with photos after the notification went out: the visitor gets the same reference, the office the photos', async () => {
    const smtp = await startSmtpServer();
    closers.push(smtp.close);
    const handle = createContactHandler({
      config: loadEnquiryConfig({ ENQUIRY_ACKNOWLEDGE: 'off' }),
      db: async () => db,
      wake: silent,
      photosRoot,
    });
    const address = '192.0.2.77';
    const first = await handle((await multipartRequest(valid, [], { address })).request);
    expect(first).toMatchObject({ status: 201, body: { reference } });
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: 'unused' });
    closers.push(() => mailer.close());
    const office = createOutboxWorker({
      db,
      mailer,
      from: 'website@homecare.test',
      to: 'office@homecare.test',
      pollMs: 60_000,
      photosRoot,
      log: silent,
    });
    closers.push(() => office.stop());
    expect(await office.runOnce()).toBe(1);

    const image = await phonePhoto(6, { width: 640, height: 480 });
    const again = await handle((await multipartRequest(valid, [{ name: 'leak.jpg', bytes: image }], { address })).request);
    expect(again).toEqual(first);
    expect(await office.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(2);
    const followUp = parseMail(smtp.received[1]!.raw);
    expect(followUp.subject).toBe(`More photos for ${reference}`);
    expect(followUp.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      ['photo-1.jpg', 'image/jpeg'],
    ]);
    expect(followUp.text).toContain('(sent as "leak.jpg")');
    expect(smtp.received[1]!.raw).toMatch(/^In-Reply-To: <enquiry-1\./m);
    expect(await office.runOnce()).toBe(0);
  }, 30_000);
});
