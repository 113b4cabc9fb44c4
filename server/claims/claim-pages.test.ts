// The claim pages' server side against a real database: the look-up, its budget of failures, the
// signed links, the staff page's Save, and what retention and an erasure leave of a claim's stages.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadLinkText, staffPage, trackPage } from '@/content/claims';
import { enquiryReference } from '@/lib/enquiry-reference';
import { claimLinkToken, claimOfToken, claimSessionValue, rotateClaimLinks } from '@/server/claims/claim-links';
import { createClaimPages, newFormToken } from '@/server/claims/claim-pages';
import { loadEnquiryConfig } from '@/server/enquiries/config';
import { createContactHandler } from '@/server/enquiries/contact-handler';
import { erasePersonalData, exportPersonalData } from '@/server/enquiries/data-requests';
import { createMailer } from '@/server/enquiries/mailer';
import { createOutboxWorker } from '@/server/enquiries/outbox-worker';
import { recentEnquiries } from '@/server/enquiries/store';
import { purgeExpired } from '@/server/retention';
import { contactRequest, tempDatabase } from '@/tests/support/enquiry-peers';
import { parseMail } from '@/tests/support/mail-message';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const valid = { name: 'Jo Bloggs', email: 'Jo@Example.com', phone: '', subject: 'Ceiling down', message: 'The kitchen ceiling came down.' };

async function storedEnquiry(body: object = valid): Promise<number> {
  const handle = createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined });
  const answer = await handle(contactRequest(body));
  expect(answer.status).toBe(201);
  return Number((await db.execute('SELECT max(id) AS id FROM enquiries')).rows[0]?.id);
}

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
    const refused = await pages.saveUpdate(reference, staff, saveForm({ stage: 'demolished', nextDate: '2026-02-30', note: 'x'.repeat(1001) }));
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
