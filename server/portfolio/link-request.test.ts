// Asking for a portfolio link on /insurers, against a real database: who is sent what, and the answer
// on screen for each (the same for every valid address), with the worker that sends the e-mails.
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portfolioLinkEmail, portfolioRequestText } from '@/content/portfolio-request';
import { orm } from '@/server/base/db';
import { organisationDomains, organisationPeople, organisations, portfolioAccessLog, portfolioLinkMails } from '@/server/base/db-schema';
import { createRateLimiter } from '@/server/base/rate-limiter';
import type { Mailer } from '@/server/delivery/mailer';
import { createLinkMailWorker } from '@/server/delivery/portfolio-link-mail';
import { createLinkRequests, LINK_REQUESTS_PER_CLIENT } from '@/server/portfolio/link-request';
import { openPortfolioLink, PORTFOLIO_LINK_HOURS, PORTFOLIO_SESSION_DAYS } from '@/server/portfolio/portfolio-access';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const HOUR_MS = 60 * 60_000;
const SITE = 'https://homecare.test';
let db: Client;
let cleanup: () => void;
let clock: number;
let sent: Mail.Options[];

beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  clock = Date.parse('2026-11-23T10:00:00Z');
  sent = [];
});
afterEach(() => cleanup());

const mailer: Mailer = {
  describe: 'test',
  send: async (message) => {
    sent.push(message);
    return { messageId: `<m${sent.length}@test>` };
  },
  close: () => undefined,
};

async function organisation(name: string, domain: string) {
  const [row] = await orm(db)
    .insert(organisations)
    .values({ name, createdMs: clock, updatedMs: clock })
    .returning({ id: organisations.id });
  await orm(db).insert(organisationDomains).values({ domain, organisationId: row!.id });
  return row!.id;
}

const fromClient = (address: string) => new Headers({ 'x-homecare-client-address': address });
const requests = (perClient = createRateLimiter({ ...LINK_REQUESTS_PER_CLIENT, now: () => clock })) =>
  createLinkRequests({ db: async () => db, now: () => clock, perClient });
const worker = () =>
  createLinkMailWorker({
    db,
    mailer,
    from: 'website@homecare.test',
    replyTo: 'office@homecare.test',
    siteUrl: SITE,
    pollMs: 60_000,
    now: () => clock,
    log: () => undefined,
  });
const jobCount = async () => (await orm(db).select().from(portfolioLinkMails)).length;
/** What the worker made of each request so far: 'sent', or why it was declined. */
const decisions = async () =>
  (await orm(db).select().from(portfolioLinkMails).orderBy(portfolioLinkMails.id)).map((job) =>
    job.status === 'declined' ? job.lastError : job.status,
  );
const answered = { kind: 'answered' };
/** The token of the link in the `index`th e-mail sent. */
const linkIn = (index: number) => /https:\/\/homecare\.test\/portfolio\/open\/(\S+)/.exec(String(sent[index]?.text))?.[1];

describe('asking for a portfolio link', () => {
  it('words the answer and the e-mail with the link’s one opening within its hours, and the session’s days', () => {
    expect(portfolioRequestText.answered).toBe(
      `If that address is registered with us, we have sent it a link. It opens your claims once, within ${PORTFOLIO_LINK_HOURS} hours.`,
    );
    expect(portfolioRequestText.answered).toContain('once, within 24 hours');
    const text = portfolioLinkEmail.text('https://homecare.test/portfolio/open/x');
    expect(text).toContain(`It opens your claims once, within ${PORTFOLIO_LINK_HOURS} hours,`);
    expect(text).toContain(`keeps that browser signed in for ${PORTFOLIO_SESSION_DAYS} days from the last time you use it`);
  });

  it('e-mails an address at a registered domain its own link, and makes its person only when the link is opened', async () => {
    const organisationId = await organisation('Claims Direct', 'claimsdirect.example');
    const result = await requests().handle('  Ann.Adjuster@ClaimsDirect.example ', fromClient('203.0.113.5'));
    expect(result).toEqual({ state: answered, outcome: 'queued' });
    expect(await worker().runOnce()).toHaveLength(1);
    expect(await orm(db).select().from(organisationPeople)).toHaveLength(0);

    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('Ann.Adjuster@ClaimsDirect.example');
    expect(sent[0]!.subject).toBe('Your claims with Example Homecare: your link');
    expect(sent[0]!.headers).toEqual({ 'Auto-Submitted': 'auto-generated' });
    const token = linkIn(0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // It opens once.
    const opened = await openPortfolioLink(db, token!, clock + 60_000, 'Firefox');
    expect(opened).toMatchObject({ kind: 'opened', viewer: { organisationId, email: 'Ann.Adjuster@ClaimsDirect.example' } });
    expect(await orm(db).select().from(organisationPeople)).toEqual([
      expect.objectContaining({ organisationId, emailKey: 'ann.adjuster@claimsdirect.example', createdMs: clock + 60_000 }),
    ]);
    expect(await openPortfolioLink(db, token!, clock + 120_000, 'Firefox')).toEqual({ kind: 'used-or-old' });

    const logged = await orm(db).select().from(portfolioAccessLog);
    expect(logged).toEqual([
      expect.objectContaining({
        organisationId,
        personId: null,
        action: 'link-sent',
        detail: 'ann.adjuster@claimsdirect.example',
        atMs: clock,
      }),
    ]);
    expect(JSON.stringify(logged)).not.toContain(token);
    const [job] = await orm(db).select().from(portfolioLinkMails);
    expect(job).toMatchObject({ status: 'sent', messageId: '<m1@test>' });
  });

  it('does the same for any valid address: one request queued; the worker sends an unregistered domain’s nothing and keeps no address', async () => {
    await organisation('Claims Direct', 'claimsdirect.example');
    const results = [
      await requests().handle('someone@elsewhere.example', fromClient('203.0.113.5')),
      await requests().handle('ann@claimsdirect.example', fromClient('203.0.113.5')),
    ];
    expect(results).toEqual([
      { state: answered, outcome: 'queued' },
      { state: answered, outcome: 'queued' },
    ]);
    expect(await orm(db).select().from(organisationPeople)).toHaveLength(0);
    await worker().runOnce();
    expect(sent.map((message) => message.to)).toEqual(['ann@claimsdirect.example']);
    expect(await decisions()).toEqual(['not-registered', 'sent']);
    const [declined] = await orm(db).select().from(portfolioLinkMails).orderBy(portfolioLinkMails.id);
    expect(declined).toMatchObject({ email: '', mailbox: '' });
    expect(await orm(db).select().from(organisationPeople)).toHaveLength(0);
  });

  it('sends nothing to a revoked person, however the address is spelt, with the same answer', async () => {
    const organisationId = await organisation('Claims Direct', 'claimsdirect.example');
    await orm(db).insert(organisationPeople).values({
      organisationId,
      email: 'leaver@claimsdirect.example',
      emailKey: 'leaver@claimsdirect.example',
      createdMs: clock,
      revokedMs: clock,
    });
    for (const variant of ['Leaver@claimsdirect.example', 'leaver+x@claimsdirect.example', 'leaver@claimsdirect.example.'])
      expect(await requests().handle(variant, fromClient('203.0.113.5'))).toEqual({ state: answered, outcome: 'queued' });
    await worker().runOnce();
    expect(sent).toHaveLength(0);
    expect(await decisions()).toEqual(['revoked', 'revoked', 'revoked']);
    const [person] = await orm(db).select().from(organisationPeople);
    expect(person).toMatchObject({ revokedMs: clock });
  });

  it('opens nothing for a link whose address was revoked, its domain dropped or its organisation suspended after it was sent', async () => {
    const organisationId = await organisation('Claims Direct', 'claimsdirect.example');
    await orm(db).insert(organisationDomains).values({ domain: 'cd.example', organisationId });
    for (const address of ['ann@claimsdirect.example', 'bob@cd.example', 'cat@claimsdirect.example'])
      await requests().handle(address, fromClient('203.0.113.5'));
    await worker().runOnce();
    const [ann, bob, cat] = [linkIn(0)!, linkIn(1)!, linkIn(2)!];
    await orm(db).delete(organisationDomains).where(eq(organisationDomains.domain, 'cd.example'));
    expect(await openPortfolioLink(db, bob, clock, 'Firefox')).toEqual({ kind: 'dead' });
    await orm(db).insert(organisationPeople).values({
      organisationId,
      email: 'Ann@claimsdirect.example',
      emailKey: 'ann@claimsdirect.example',
      createdMs: clock,
      revokedMs: clock,
    });
    expect(await openPortfolioLink(db, ann, clock, 'Firefox')).toEqual({ kind: 'dead' });
    await orm(db).update(organisations).set({ suspendedMs: clock }).where(eq(organisations.id, organisationId));
    expect(await openPortfolioLink(db, cat, clock, 'Firefox')).toEqual({ kind: 'dead' });
    expect(await orm(db).select().from(organisationPeople)).toHaveLength(1);
  });

  it('sends nothing to an address no longer standing when the worker comes to it: organisation suspended, or domain dropped', async () => {
    const organisationId = await organisation('Claims Direct', 'claimsdirect.example');
    await orm(db).insert(organisationDomains).values({ domain: 'cd.example', organisationId });
    await requests().handle('ann@claimsdirect.example', fromClient('203.0.113.5'));
    await requests().handle('bob@cd.example', fromClient('203.0.113.5'));
    await orm(db).delete(organisationDomains).where(eq(organisationDomains.domain, 'cd.example'));
    await worker().runOnce();
    expect(sent.map((message) => message.to)).toEqual(['ann@claimsdirect.example']);

    await requests().handle('cat@claimsdirect.example', fromClient('203.0.113.5'));
    await orm(db).update(organisations).set({ suspendedMs: clock }).where(eq(organisations.id, organisationId));
    await worker().runOnce();
    expect(sent).toHaveLength(1);
    expect(await decisions()).toEqual(['sent', 'not-registered', 'revoked']);
    // Resumed, the address is sent a link again.
    await orm(db).update(organisations).set({ suspendedMs: null }).where(eq(organisations.id, organisationId));
    await requests().handle('cat@claimsdirect.example', fromClient('203.0.113.5'));
    await worker().runOnce();
    expect(sent.map((message) => message.to)).toEqual(['ann@claimsdirect.example', 'cat@claimsdirect.example']);
  });

  it('puts a new link in each e-mail to the same person, each opening once', async () => {
    await organisation('Claims Direct', 'claimsdirect.example');
    const asking = requests();
    expect((await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'))).outcome).toBe('queued');
    await worker().runOnce();
    clock += HOUR_MS;
    expect((await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'))).outcome).toBe('queued');
    await worker().runOnce();
    expect(sent).toHaveLength(2);
    const [first, second] = [linkIn(0)!, linkIn(1)!];
    expect(first).not.toBe(second);
    // The first is still unopened: each opens, once, for the same person.
    const openings = [await openPortfolioLink(db, first, clock, 'Firefox'), await openPortfolioLink(db, second, clock, 'Safari')];
    expect(openings.map((opening) => opening.kind)).toEqual(['opened', 'opened']);
    expect(new Set(openings.map((opening) => (opening.kind === 'opened' ? opening.viewer.personId : null))).size).toBe(1);
    expect((await openPortfolioLink(db, second, clock, 'Safari')).kind).toBe('used-or-old');
  });

  it('e-mails an address at most once an hour, however often it asks, with the same answer', async () => {
    await organisation('Claims Direct', 'claimsdirect.example');
    // The mailbox's own budget (link-request-budgets.test.ts) held wide open: this is the hour between e-mails.
    const asking = createLinkRequests({
      db: async () => db,
      now: () => clock,
      perMailbox: createRateLimiter({ limit: 100, windowMs: HOUR_MS, now: () => clock }),
    });
    expect((await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'))).outcome).toBe('queued');
    await worker().runOnce();
    clock += 10 * 60_000;
    const again = await asking.handle('ANN@claimsdirect.example', fromClient('198.51.100.7'));
    expect(again).toEqual({ state: answered, outcome: 'queued' });
    await Promise.all([
      asking.handle('ann@claimsdirect.example', fromClient('198.51.100.8')),
      asking.handle('ann+tag@claimsdirect.example', fromClient('198.51.100.9')),
    ]);
    await worker().runOnce();
    expect(sent).toHaveLength(1);
    expect(await decisions()).toEqual(['sent', 'sent-lately', 'sent-lately', 'sent-lately']);
    clock += HOUR_MS - 10 * 60_000 + 1;
    await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'));
    await worker().runOnce();
    expect(sent).toHaveLength(2);
  });

  it('holds a client to its budget of requests, whatever the addresses, before reading the database', async () => {
    await organisation('Claims Direct', 'claimsdirect.example');
    const asking = requests(createRateLimiter({ limit: 3, windowMs: HOUR_MS, now: () => clock }));
    for (const name of ['a', 'b', 'c'])
      expect((await asking.handle(`${name}@nowhere.example`, fromClient('203.0.113.5'))).outcome).toBe('queued');
    const refused = await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'));
    expect(refused).toEqual({
      state: { kind: 'refused', message: portfolioRequestText.tooMany(60), fieldError: undefined, email: 'ann@claimsdirect.example' },
      outcome: 'refused',
    });
    expect(portfolioRequestText.tooMany(60)).toBe(
      'Too many requests from your connection. Please try again in 60 minutes, or call 0141 496 0123.',
    );
    expect(await jobCount()).toBe(3);
    // Another client is not held back.
    expect((await asking.handle('ann@claimsdirect.example', fromClient('198.51.100.7'))).outcome).toBe('queued');
    clock += HOUR_MS;
    expect((await asking.handle('b@nowhere.example', fromClient('203.0.113.5'))).outcome).toBe('queued');
  });

  it('gives a bad address a field error, spending no budget and touching no table', async () => {
    await organisation('Claims Direct', 'claimsdirect.example');
    const asking = requests(createRateLimiter({ limit: 1, windowMs: HOUR_MS, now: () => clock }));
    const cases: [string, string][] = [
      ['', 'Enter your e-mail address in the form name@example.com'],
      ['not an address', 'Enter your e-mail address in the form name@example.com'],
      ['ann@claimsdirect', 'Enter your e-mail address in the form name@example.com'],
      [`${'a'.repeat(250)}@claimsdirect.example`, 'That address is too long: at most 254 characters'],
      ['@'.repeat(100_000), 'That address is too long: at most 254 characters'],
    ];
    for (const [email, error] of cases) {
      const result = await asking.handle(email, fromClient('203.0.113.5'));
      expect(result.state).toEqual({ kind: 'refused', message: error, fieldError: error, email });
    }
    const form = new FormData();
    form.set('email', `${'x'.repeat(5000)}@claimsdirect.example`);
    form.append('email', 'ann@claimsdirect.example');
    const fromForm = await asking.fromForm(form, fromClient('203.0.113.5'));
    expect(fromForm).toMatchObject({ kind: 'refused', fieldError: 'That address is too long: at most 254 characters' });
    expect(fromForm.kind === 'refused' && fromForm.email.length).toBe(1016);
    expect(await asking.fromForm(new FormData(), fromClient('203.0.113.5'))).toMatchObject({ kind: 'refused', email: '' });
    expect(await jobCount()).toBe(0);
    // The one request of the budget is still there.
    expect((await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'))).outcome).toBe('queued');
  });

  it('answers a database it cannot reach with a message, not an error', async () => {
    const asking = createLinkRequests({
      db: async () => {
        throw new Error('SQLITE_BUSY');
      },
    });
    const original = console.error;
    console.error = () => undefined;
    try {
      const result = await asking.handle('ann@claimsdirect.example', fromClient('203.0.113.5'));
      expect(result.state).toEqual({
        kind: 'refused',
        message: portfolioRequestText.unavailable,
        fieldError: undefined,
        email: 'ann@claimsdirect.example',
      });
    } finally {
      console.error = original;
    }
  });
});
