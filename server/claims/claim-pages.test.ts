// The claim pages' server side against a real database: the look-up, its budget of failures, the
// signed links, the staff page's Save, and what retention and an erasure leave of a claim's stages.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadLinkText, trackPage } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { enquiryReference } from '@/lib/enquiry-reference';
import { wallClock } from '@/lib/zone-clock';
import {
  claimLinkToken,
  claimOfLiveToken,
  claimOfToken,
  claimSessionValue,
  renewStaffLink,
  revokeClaimLinks,
  rotateClaimLinks,
  sessionOpensClaim,
  staffLinkExpiresAt,
} from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { exchangeLink, secureClaimCookie } from '@/server/claims/link-exchange';
import { resetConfig } from '@/server/base/config.mjs';
import { defangedNote } from '@/server/delivery/stage-email';
import { erasePersonalData, exportPersonalData } from '@/server/upkeep/data-requests';
import { createMailer } from '@/server/delivery/mailer';
import { createOutboxWorker } from '@/server/delivery/outbox-worker';
import { recentEnquiries } from '@/server/ledger/enquiry-reads';
import { purgeExpired } from '@/server/upkeep/retention';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { parseMail } from '@/tests/support/mail-message';
import { submitEnquiry, typedEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const valid = { ...typedEnquiry, email: 'Jo@Example.com' };

const storedEnquiry = async (fields: Record<string, string> = valid) => (await submitEnquiry(db, fields)).id;

/** The outbox worker writing to a folder, with the claim links of https://www.example.test. */
const folderWorker = (outbox: string, now?: () => number) =>
  createOutboxWorker({
    db,
    mailer: createMailer({ smtpUrl: null, outboxDir: outbox }),
    from: 'site@example.com',
    to: 'office@example.com',
    pollMs: 1000,
    log: () => undefined,
    siteUrl: 'https://www.example.test',
    ...(now ? { now } : {}),
  });

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};
/** The cookie a link of `purpose` to enquiry `id` is traded for, made at `now`. */
const session = async (purpose: 'status' | 'update', id: number, now = Date.now()) => (await claimSessionValue(db, purpose, id, now))!;
/** A Save's fields with a form token of its own, as the staff page serves it. */
const saveForm = (fields: Record<string, string>) => form({ formToken: newFormToken(), ...fields });

const from = (address: string) => new Headers({ 'x-homecare-client-address': address });

describe('the look-up', () => {
  it('opens a claim by its reference and the address it was sent from, however they are typed, and shows nothing else of it', async () => {
    const id = await storedEnquiry();
    const pages = createClaimPages({ db: async () => db });
    const found = await pages.lookUp(
      form({ reference: ` ${enquiryReference(id).toLowerCase()} `, email: 'jo@example.COM' }),
      from('10.1.0.1'),
    );
    expect(found).toMatchObject({ kind: 'found', status: { reference: enquiryReference(id), stage: 'received', waitingOn: null } });
    if (found.kind !== 'found') throw new Error('not found');
    expect(found.status.timeline).toHaveLength(1);
    expect(JSON.stringify(found)).not.toMatch(/Jo Bloggs|kitchen|Ceiling|example\.com/i);
  });

  it('a wrong reference and a wrong address get the same answer; after ten failures a client waits, another is unaffected', async () => {
    const id = await storedEnquiry();
    const pages = createClaimPages({ db: async () => db });
    const wrongEmail = await pages.lookUp(form({ reference: enquiryReference(id), email: 'sam@example.com' }), from('10.1.0.2'));
    const wrongReference = await pages.lookUp(form({ reference: enquiryReference(id + 1), email: valid.email }), from('10.1.0.2'));
    const nonsense = await pages.lookUp(form({ reference: 'HC-nonsense', email: valid.email }), from('10.1.0.2'));
    for (const answer of [wrongEmail, wrongReference, nonsense])
      expect(answer).toMatchObject({ kind: 'refused', message: trackPage.notFound });
    for (let more = 0; more < 7; more += 1)
      await pages.lookUp(form({ reference: enquiryReference(id), email: `x${more}@example.com` }), from('10.1.0.2'));
    const waiting = await pages.lookUp(form({ reference: enquiryReference(id), email: valid.email }), from('10.1.0.2'));
    expect(waiting).toMatchObject({ kind: 'refused', message: trackPage.tooMany(60), values: { reference: enquiryReference(id) } });
    expect(await pages.lookUp(form({ reference: enquiryReference(id), email: valid.email }), from('10.1.0.3'))).toMatchObject({
      kind: 'found',
    });
  });

  it('asks for both fields when one is empty, without spending the budget', async () => {
    const pages = createClaimPages({ db: async () => db });
    for (let tries = 0; tries < 12; tries += 1)
      expect(await pages.lookUp(form({ reference: 'HC-ABC-DEF', email: ' ' }), from('10.1.0.4'))).toMatchObject({
        message: trackPage.incomplete,
      });
  });
});

describe('signed links', () => {
  it('a link opens its claim for its purpose only; a changed one, another enquiry’s or one after a new secret opens nothing', async () => {
    const id = await storedEnquiry();
    const other = await storedEnquiry({ ...valid, email: 'sam@example.com' });
    const status = (await claimLinkToken(db, 'status', id))!;
    const update = (await claimLinkToken(db, 'update', id))!;
    expect(status).toMatch(/^\d+\.[A-Za-z0-9_-]{32}$/);
    expect(await claimOfToken(db, 'status', status)).toBe(id);
    expect(await claimOfToken(db, 'update', update)).toBe(id);
    expect(await claimOfToken(db, 'update', status)).toBeNull();
    const [, mac] = status.split('.');
    expect(await claimOfToken(db, 'status', `${other}.${mac}`)).toBeNull();
    expect(await claimOfToken(db, 'status', `${status.slice(0, -1)}${status.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    for (const junk of ['', '1', '1.', 'x.y', `${id}.${mac}.extra`, '0.' + mac]) expect(await claimOfToken(db, 'status', junk)).toBeNull();
    await rotateClaimLinks(db);
    expect(await claimOfToken(db, 'status', status)).toBeNull();
    expect(await claimOfToken(db, 'status', (await claimLinkToken(db, 'status', id))!)).toBe(id);
  });
});

describe('the staff page', () => {
  it('saves a stage with its date, whose move and note; the status shows them, the timeline keeps each change', async () => {
    const id = await storedEnquiry();
    let now = Date.parse('2026-12-01T09:00:00Z');
    const pages = createClaimPages({ db: async () => db, now: () => now });
    const reference = enquiryReference(id);
    const staff = await session('update', id, now);
    expect(await pages.staffClaim(reference, staff)).toMatchObject({ stage: 'received' });
    const saved = await pages.saveUpdate(
      reference,
      staff,
      saveForm({ stage: 'survey-booked', nextDate: '2026-12-02', waitingOn: 'us', note: 'Survey on Tuesday morning.', quiet: '' }),
    );
    expect(saved).toEqual({ kind: 'saved', message: staffPage.saved('Survey booked'), formToken: expect.stringMatching(/^[\w-]{24}$/) });
    now += 60_000;
    await pages.saveUpdate(reference, staff, saveForm({ stage: 'contacted', note: 'Internal: wrong stage before.', quiet: 'on' }));
    const status = (await pages.statusBySession(reference, await session('status', id, now)))?.status;
    expect(status).toMatchObject({ stage: 'contacted', waitingOn: null, nextDate: null });
    expect(status?.timeline.map(({ stage, note }) => [stage, note])).toEqual([
      ['received', null],
      ['survey-booked', 'Survey on Tuesday morning.'],
      // A change the customer is not told of keeps its note from them.
      ['contacted', null],
    ]);
    // npm run enquiries lists each enquiry with its stage.
    expect((await recentEnquiries(db)).map((entry) => entry.stage)).toEqual(['contacted']);
  });

  it('refuses a stage not on the list, a date not in the calendar and a note too long, keeping what was entered; a bad link saves nothing', async () => {
    const id = await storedEnquiry();
    const pages = createClaimPages({ db: async () => db });
    const reference = enquiryReference(id);
    const staff = await session('update', id);
    const refused = await pages.saveUpdate(
      reference,
      staff,
      saveForm({ stage: 'demolished', nextDate: '2026-02-30', note: 'x'.repeat(1001) }),
    );
    expect(refused).toMatchObject({
      kind: 'refused',
      message: staffPage.invalid,
      errors: { stage: staffPage.badStage, nextDate: staffPage.badDate, note: staffPage.noteTooLong },
      values: { stage: 'demolished', nextDate: '2026-02-30' },
    });
    for (const [where, cookie] of [
      [reference, `${staff}x`],
      [reference, await session('status', id)],
      [enquiryReference(id + 1), staff],
      [reference, undefined],
    ] as const)
      expect(await pages.saveUpdate(where, cookie, saveForm({ stage: 'completed' }))).toMatchObject({
        kind: 'refused',
        message: deadLinkText.update,
      });
    expect((await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n).toBe(0);
  });

  it('a claim’s stages are exported with a data request and go with an erasure and with retention', async () => {
    const id = await storedEnquiry();
    const other = await storedEnquiry({ ...valid, email: 'sam@example.com' });
    const pages = createClaimPages({ db: async () => db });
    for (const enquiry of [id, other])
      await pages.saveUpdate(enquiryReference(enquiry), await session('update', enquiry), saveForm({ stage: 'surveyed', note: 'Seen.' }));
    const exported = await exportPersonalData(db, valid.email);
    expect(exported.enquiries[0]?.stageChanges).toMatchObject([{ stage: 'surveyed', note: 'Seen.', source: 'staff' }]);
    await erasePersonalData(db, valid.email, { outboxDir: '/nonexistent' });
    expect((await db.execute('SELECT enquiry_id FROM claim_stage_changes')).rows.map((row) => row.enquiry_id)).toEqual([other]);
    await purgeExpired(db, Date.now() + 400 * 24 * 60 * 60_000, { outboxDir: '/nonexistent' });
    expect((await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n).toBe(0);
  });
});

describe('the links in the e-mails', () => {
  it('the company’s notification carries the staff link and the customer’s acknowledgement the status link, each opening the claim', async () => {
    const id = await storedEnquiry();
    const outbox = mkdtempSync(path.join(tmpdir(), 'homecare-claim-links-'));
    try {
      const worker = folderWorker(outbox);
      expect(await worker.runOnce()).toBe(2);
      const text = (prefix: string) => {
        const file = readdirSync(outbox).find((name) => name.startsWith(prefix))!;
        return parseMail(readFileSync(path.join(outbox, file), 'utf8')).text;
      };
      const update = /Update the repair’s status: https:\/\/www\.example\.test\/claim-update\/(\S+)/.exec(text('enquiry-'))?.[1];
      const status = /^https:\/\/www\.example\.test\/track\/(\S+)$/m.exec(text('acknowledgement-'))?.[1];
      expect(await claimOfToken(db, 'update', update ?? '')).toBe(id);
      expect(await claimOfToken(db, 'status', status ?? '')).toBe(id);
      expect(text('acknowledgement-')).not.toContain('/claim-update/');
    } finally {
      rmSync(outbox, { recursive: true, force: true });
    }
  });
});

describe('the customer hears of each change', () => {
  it('one e-mail per change, once: the reference, the stage, the date, the note and the link; none for a quiet change', async () => {
    const id = await storedEnquiry();
    let now = Date.parse('2026-12-01T09:00:00Z');
    const pages = createClaimPages({ db: async () => db, now: () => now });
    const reference = enquiryReference(id);
    const staff = await session('update', id, now);
    const outbox = mkdtempSync(path.join(tmpdir(), 'homecare-stage-mails-'));
    try {
      const worker = folderWorker(outbox, () => now);
      await pages.saveUpdate(
        reference,
        staff,
        saveForm({ stage: 'survey-booked', nextDate: '2026-12-02', waitingOn: 'us', note: 'Our surveyor will call in the morning.' }),
      );
      now += 60_000;
      await pages.saveUpdate(reference, staff, saveForm({ stage: 'contacted', note: 'Internal: corrected.', quiet: 'on' }));
      now += 60_000;
      await pages.saveUpdate(reference, staff, saveForm({ stage: 'surveyed' }));
      // The notification, the acknowledgement and two stage e-mails; a second round sends nothing again.
      expect(await worker.runOnce()).toBe(4);
      expect(await worker.runOnce()).toBe(0);
      const stageMails = readdirSync(outbox)
        .filter((name) => name.startsWith('stage-'))
        .map((name) => parseMail(readFileSync(path.join(outbox, name), 'utf8')));
      expect(stageMails.map((mail) => mail.subject).sort()).toEqual(
        [
          `Your repair ${enquiryReference(id)}: Survey booked (Example Homecare)`,
          `Your repair ${enquiryReference(id)}: Surveyed (Example Homecare)`,
        ].sort(),
      );
      const booked = stageMails.find((mail) => mail.subject.includes('Survey booked'))!;
      expect(booked.headers.to).toBe('Jo@example.com');
      expect(booked.text).toContain(`Your claim ${enquiryReference(id)} has moved on. It is now at: Survey booked.`);
      expect(booked.text).toMatch(/Next date: Wednesday,? 2 December 2026/);
      expect(booked.text).toContain('Our surveyor will call in the morning.');
      const link = /^https:\/\/www\.example\.test\/track\/(\S+)$/m.exec(booked.text)?.[1];
      expect(await claimOfToken(db, 'status', link ?? '')).toBe(id);
      for (const mail of stageMails) expect(mail.text).not.toMatch(/Jo Bloggs|kitchen|Ceiling down|Internal: corrected/);
    } finally {
      rmSync(outbox, { recursive: true, force: true });
    }
  });
});

describe('a staff link worth its power', () => {
  const DAY = 24 * 60 * 60_000;

  it('expires 30 days after the claim last moved; a change or the operator’s renewal gives it 30 more; the status link lives on', async () => {
    const id = await storedEnquiry();
    const received = Number((await db.execute({ sql: 'SELECT received_ms AS ms FROM enquiries WHERE id = ?', args: [id] })).rows[0]?.ms);
    const staff = (await claimLinkToken(db, 'update', id))!;
    const status = (await claimLinkToken(db, 'status', id))!;
    expect(await staffLinkExpiresAt(db, id)).toBe(received + 30 * DAY);
    expect(await claimOfLiveToken(db, 'update', staff, received + 30 * DAY - 1)).toBe(id);
    expect(await claimOfLiveToken(db, 'update', staff, received + 30 * DAY)).toBeNull();
    expect(await claimOfLiveToken(db, 'status', status, received + 300 * DAY)).toBe(id);
    // A page opened the day before is shut too when the link expires.
    const opened = await session('update', id, received + 30 * DAY - 60_000);
    expect(await sessionOpensClaim(db, 'update', id, opened, received + 30 * DAY - 1)).toBe(true);
    expect(await sessionOpensClaim(db, 'update', id, opened, received + 30 * DAY)).toBe(false);

    const pages = createClaimPages({ db: async () => db, now: () => received + 20 * DAY });
    await pages.saveUpdate(enquiryReference(id), await session('update', id, received + 20 * DAY), saveForm({ stage: 'contacted' }));
    expect(await staffLinkExpiresAt(db, id)).toBe(received + 50 * DAY);
    await renewStaffLink(db, id, received + 70 * DAY);
    expect(await claimOfLiveToken(db, 'update', staff, received + 99 * DAY)).toBe(id);
  });

  it('is renewed only by its own claim’s changes, not by another claim’s', async () => {
    // The first claim's first change is row 1 of the changes, as the first claim is enquiry 1.
    const moved = await storedEnquiry();
    const idle = await storedEnquiry();
    const received = Number((await db.execute({ sql: 'SELECT received_ms AS ms FROM enquiries WHERE id = ?', args: [idle] })).rows[0]?.ms);
    const pages = createClaimPages({ db: async () => db, now: () => received + 29 * DAY });
    await pages.saveUpdate(enquiryReference(moved), await session('update', moved, received + 29 * DAY), saveForm({ stage: 'contacted' }));
    const [change] = (await db.execute('SELECT id, enquiry_id FROM claim_stage_changes')).rows;
    expect([change?.id, change?.enquiry_id]).toEqual([moved, moved]);
    expect(await staffLinkExpiresAt(db, moved)).toBe(received + 59 * DAY);
    expect(await staffLinkExpiresAt(db, idle)).toBe(received + 30 * DAY);
    expect(await claimOfLiveToken(db, 'update', (await claimLinkToken(db, 'update', idle))!, received + 31 * DAY)).toBeNull();
  });

  it('a page’s cookie lasts 12 hours, opens only its claim and purpose, and ends with a revocation of the claim or a rotation of all', async () => {
    const id = await storedEnquiry();
    const other = await storedEnquiry({ ...valid, email: 'sam@example.com' });
    const now = Date.now();
    const cookie = await session('status', id, now);
    expect(cookie).not.toContain((await claimLinkToken(db, 'status', id))!.split('.')[1]);
    expect(await sessionOpensClaim(db, 'status', id, cookie, now + 12 * 60 * 60_000 - 1)).toBe(true);
    expect(await sessionOpensClaim(db, 'status', id, cookie, now + 12 * 60 * 60_000)).toBe(false);
    expect(await sessionOpensClaim(db, 'update', id, cookie, now)).toBe(false);
    expect(await sessionOpensClaim(db, 'status', other, cookie, now)).toBe(false);
    const otherCookie = await session('status', other, now);

    expect(await revokeClaimLinks(db, id)).toBe(true);
    expect(await sessionOpensClaim(db, 'status', id, cookie, now)).toBe(false);
    expect(await sessionOpensClaim(db, 'status', other, otherCookie, now)).toBe(true);
    await rotateClaimLinks(db);
    expect(await sessionOpensClaim(db, 'status', other, otherCookie, now)).toBe(false);
  });

  it('opening a link changes nothing and answers a page that moves on by itself to the claim’s page, with a Strict cookie for that page only', async () => {
    const id = await storedEnquiry();
    const reference = enquiryReference(id);
    const token = (await claimLinkToken(db, 'update', id))!;
    const before = (await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n;
    const answer = await exchangeLink('update', token, { db: async () => db, https: true });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const cookie = answer.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      new RegExp(`^claim-update=\\d+\\.[\\w-]{32}; Path=/claims/${reference}/update; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$`),
    );
    expect(cookie).not.toContain(token.split('.')[1]);
    const html = await answer.text();
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=/claims/${reference}/update">`);
    expect(html).not.toContain(token);
    expect((await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n).toBe(before);

    const value = /^claim-update=([^;]+)/.exec(cookie)![1];
    const pages = createClaimPages({ db: async () => db });
    expect(await pages.staffClaim(reference, value)).toMatchObject({ reference, stage: 'received' });

    await revokeClaimLinks(db, id);
    const revoked = await exchangeLink('update', token, { db: async () => db, https: false });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('set-cookie')).toBeNull();
    expect(await pages.staffClaim(reference, value)).toBeNull();
    expect((await exchangeLink('update', 'nonsense', { db: async () => db })).status).toBe(404);
  });

  it('the cookie is Secure on an https site, but not when the site is reached on this machine’s loopback (WebKit refuses a Secure cookie from http)', async () => {
    const saved = process.env.SITE_URL;
    try {
      process.env.SITE_URL = 'https://www.example.com';
      resetConfig();
      for (const host of ['www.example.com', 'www.example.com:443', '127.0.0.1.example.com', null])
        expect(secureClaimCookie(host), String(host)).toBe(true);
      for (const host of ['127.0.0.1:3101', 'localhost:3000', 'localhost', 'preview.localhost:8080', '[::1]:3000'])
        expect(secureClaimCookie(host), host).toBe(false);
      const id = await storedEnquiry();
      const token = (await claimLinkToken(db, 'status', id))!;
      expect((await exchangeLink('status', token, { db: async () => db, host: 'www.example.com' })).headers.get('set-cookie')).toMatch(
        /; Secure$/,
      );
      expect((await exchangeLink('status', token, { db: async () => db, host: '127.0.0.1:3101' })).headers.get('set-cookie')).not.toMatch(
        /Secure/,
      );
      process.env.SITE_URL = 'http://localhost:3000';
      resetConfig();
      expect(secureClaimCookie('www.example.com')).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.SITE_URL;
      else process.env.SITE_URL = saved;
      resetConfig();
    }
  });

  it('a Save sent twice with its form token records one change and queues one e-mail; the second send is told it changed nothing', async () => {
    const id = await storedEnquiry();
    const reference = enquiryReference(id);
    const staff = await session('update', id);
    const pages = createClaimPages({ db: async () => db });
    const fields = saveForm({ stage: 'survey-booked', note: 'Surveyor on Monday.' });
    const answers = await Promise.all([pages.saveUpdate(reference, staff, fields), pages.saveUpdate(reference, staff, fields)]);
    const changedAt = String((await db.execute('SELECT changed_at FROM claim_stage_changes')).rows[0]?.changed_at);
    const clock = wallClock(Date.parse(changedAt), 'Europe/London');
    const time = `${String(clock.hour).padStart(2, '0')}:${String(clock.minute).padStart(2, '0')}`;
    const alreadySent = staffPage.alreadySent(time, staffPage.firstStage('Survey booked'));
    expect(answers.map((answer) => answer.kind === 'idle' || answer.message).sort()).toEqual(
      [staffPage.saved('Survey booked'), alreadySent].sort(),
    );
    // The Back button, then another stage and note under the same token: nothing is saved, and it says so.
    const other = new FormData();
    for (const [name, value] of fields.entries()) other.set(name, value);
    other.set('stage', 'completed');
    other.set('note', 'All done.');
    for (const again of [await pages.saveUpdate(reference, staff, fields), await pages.saveUpdate(reference, staff, other)])
      expect(again).toMatchObject({ kind: 'refused', message: alreadySent, errors: {} });
    expect((await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n).toBe(1);
    expect((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'stage'")).rows[0]?.n).toBe(1);
    // A new form token is a new Save.
    await pages.saveUpdate(reference, staff, saveForm({ stage: 'surveyed' }));
    expect((await db.execute('SELECT count(*) AS n FROM claim_stage_changes')).rows[0]?.n).toBe(2);
    // One without a form token (a page from before) is refused, not saved.
    expect(await pages.saveUpdate(reference, staff, form({ stage: 'completed' }))).toMatchObject({
      kind: 'refused',
      message: staffPage.reload,
    });
  });

  it('a note’s web addresses reach the customer written so no mail client links them', () => {
    expect(defangedNote('See https://evil.example.com/pay or www.bank-login.co.uk, then call. Damp at 2.5m, e.g. here.')).toBe(
      'See hxxps://evil[.]example[.]com/pay or www[.]bank-login[.]co[.]uk, then call. Damp at 2.5m, e.g. here.',
    );
  });
});

describe('npm run claims', () => {
  it('--revoke stops both links of one claim, --staff-link prints a working staff link, --rotate-links stops every link', async () => {
    const { url, db: fileDb, cleanup: done } = await tempDatabase();
    try {
      for (const email of ['jo@example.com', 'sam@example.com']) await submitEnquiry(fileDb, { ...valid, email });
      const [id, other] = [1, 2];
      const links = async (enquiry: number) => [
        (await claimLinkToken(fileDb, 'status', enquiry))!,
        (await claimLinkToken(fileDb, 'update', enquiry))!,
      ];
      const [status, staff] = (await links(id)) as [string, string];
      const otherStatus = (await links(other))[0]!;
      const env = { DATABASE_URL: url, SITE_URL: 'https://www.example.test' };

      const revoked = await runToEnd(spawnTs('scripts/claims.ts', ['--revoke', enquiryReference(id).toLowerCase()], env));
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.lines).toEqual([`The links of ${enquiryReference(id)} have stopped working (its status link and its staff link).`]);
      expect(await claimOfToken(fileDb, 'status', status)).toBeNull();
      expect(await claimOfToken(fileDb, 'update', staff)).toBeNull();
      expect(await claimOfToken(fileDb, 'status', otherStatus)).toBe(other);

      const printed = await runToEnd(spawnTs('scripts/claims.ts', ['--staff-link', enquiryReference(id)], env));
      expect(printed.code, printed.stderr).toBe(0);
      const fresh = /^https:\/\/www\.example\.test\/claim-update\/(\S+)$/.exec(printed.lines[0] ?? '')?.[1];
      expect(await claimOfLiveToken(fileDb, 'update', fresh ?? '', Date.now())).toBe(id);

      const rotated = await runToEnd(spawnTs('scripts/claims.ts', ['--rotate-links'], env));
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(await claimOfToken(fileDb, 'update', fresh ?? '')).toBeNull();
      expect(await claimOfToken(fileDb, 'status', otherStatus)).toBeNull();

      const unknown = await runToEnd(spawnTs('scripts/claims.ts', ['--revoke', 'HC-ABC-DEF'], env));
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('There is no enquiry HC-ABC-DEF.');
      expect((await runToEnd(spawnTs('scripts/claims.ts', [], env))).code).toBe(2);
    } finally {
      done();
    }
  }, 60_000);
});
