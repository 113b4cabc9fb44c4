// The budgets of "Your claims with us" beyond the client's own: per mailbox (`+tags` counted as one),
// spent for every valid address before the database is read; the requests waiting at once; and the
// mail worker's, per domain and for the whole site, counted on the e-mails it sends.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orm } from '@/server/base/db';
import { organisationDomains, organisations, portfolioLinkMails } from '@/server/base/db-schema';
import type { Mailer } from '@/server/delivery/mailer';
import { createLinkMailWorker } from '@/server/delivery/portfolio-link-mail';
import {
  createLinkRequests,
  LINK_MAILS_PER_DOMAIN,
  LINK_MAILS_PER_SITE,
  LINK_REQUESTS_PER_MAILBOX,
  LINK_REQUESTS_WAITING_MAX,
  mailboxKey,
} from '@/server/portfolio/link-request';
import { tempDatabase } from '@/tests/support/enquiry-peers';

let db: Client;
let cleanup: () => void;
let clock: number;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  clock = Date.parse('2026-11-23T10:00:00Z');
  const [row] = await orm(db)
    .insert(organisations)
    .values({ name: 'Victim Insurance', createdMs: clock, updatedMs: clock })
    .returning({ id: organisations.id });
  await orm(db).insert(organisationDomains).values({ domain: 'victim.example', organisationId: row!.id });
});
afterEach(() => cleanup());

const fromClient = (index: number) => new Headers({ 'x-homecare-client-address': `203.0.113.${index}` });
const requests = () => createLinkRequests({ db: async () => db, now: () => clock });
const jobs = async () => (await orm(db).select().from(portfolioLinkMails)).length;
let sent: string[] = [];
const mailer: Mailer = {
  describe: 'test',
  send: async (message) => {
    sent.push(String(message.to));
    return { messageId: `<m${sent.length}@test>` };
  },
  close: () => undefined,
};
const worker = () =>
  createLinkMailWorker({
    db,
    mailer,
    from: 'website@homecare.test',
    replyTo: 'office@homecare.test',
    siteUrl: 'https://homecare.test',
    pollMs: 60_000,
    now: () => clock,
    log: () => undefined,
  });
/** Runs the worker until nothing is due. */
async function drain() {
  while ((await worker().runOnce()).length > 0);
}
beforeEach(() => {
  sent = [];
});

describe('the link request’s budgets', () => {
  it('counts a mailbox once whatever its +tag, folded, with its dots as typed', () => {
    expect(mailboxKey('Victim+1@Victim.example')).toBe('victim@victim.example');
    expect(mailboxKey('victim+a+b@victim.example')).toBe('victim@victim.example');
    expect(mailboxKey('vic.tim@victim.example')).toBe('vic.tim@victim.example');
    expect(mailboxKey('victim@victim.example.')).toBe('victim@victim.example');
  });

  it('30 requests to victim+N@ from 3 clients queue at most the mailbox’s budget of e-mails, each answered the same', async () => {
    const handler = requests();
    const outcomes = [];
    for (let n = 0; n < 30; n += 1) {
      const result = await handler.handle(`victim+${n}@victim.example`, fromClient(n % 3));
      expect(result.state).toEqual({ kind: 'answered' });
      outcomes.push(result.outcome);
    }
    expect(outcomes.slice(0, LINK_REQUESTS_PER_MAILBOX.limit)).toEqual(Array(LINK_REQUESTS_PER_MAILBOX.limit).fill('queued'));
    expect(outcomes.slice(LINK_REQUESTS_PER_MAILBOX.limit).every((outcome) => outcome === 'over-budget')).toBe(true);
    expect(await jobs()).toBe(LINK_REQUESTS_PER_MAILBOX.limit);
    // An hour later the mailbox may ask again.
    clock += LINK_REQUESTS_PER_MAILBOX.windowMs;
    expect((await handler.handle('victim@victim.example', fromClient(9))).outcome).toBe('queued');
  });

  it('bounds the e-mails to one registered domain’s mailboxes, and the site’s; strangers’ addresses spend neither', async () => {
    const handler = requests();
    // Random addresses at domains no one registered: answered the same, queued alike, and no e-mail counted.
    for (let n = 0; n < 60; n += 1)
      expect((await handler.handle(`someone${n}@elsewhere-${n}.example`, fromClient(n % 200))).outcome).toBe('queued');
    for (let n = 0; n < LINK_MAILS_PER_DOMAIN.limit + 5; n += 1)
      expect((await handler.handle(`person${n}@victim.example`, fromClient(n % 200))).outcome).toBe('queued');
    await drain();
    expect(sent).toHaveLength(LINK_MAILS_PER_DOMAIN.limit);
    const declined = (await orm(db).select().from(portfolioLinkMails)).filter((job) => job.status === 'declined');
    expect(declined.filter((job) => job.lastError === 'over-budget')).toHaveLength(5);
    expect(declined.filter((job) => job.lastError === 'not-registered')).toHaveLength(60);
    // An hour on, the domain is sent links again.
    clock += LINK_MAILS_PER_DOMAIN.windowMs;
    await handler.handle('late@victim.example', fromClient(7));
    await drain();
    expect(sent.at(-1)).toBe('late@victim.example');
  });

  it('stops e-mailing at the site’s hourly budget, across domains', async () => {
    for (let d = 0; d * LINK_MAILS_PER_DOMAIN.limit < LINK_MAILS_PER_SITE.limit + 10; d += 1) {
      const [row] = await orm(db)
        .insert(organisations)
        .values({ name: `Org ${d}`, createdMs: clock, updatedMs: clock })
        .returning({ id: organisations.id });
      await orm(db)
        .insert(organisationDomains)
        .values({ domain: `org${d}.example`, organisationId: row!.id });
      for (let n = 0; n < LINK_MAILS_PER_DOMAIN.limit; n += 1) await requests().handle(`p${n}@org${d}.example`, fromClient(n));
    }
    await drain();
    expect(sent).toHaveLength(LINK_MAILS_PER_SITE.limit);
  });

  it('queues at most LINK_REQUESTS_WAITING_MAX requests at once, answering the rest the same', async () => {
    const handler = requests();
    for (let n = 0; n < LINK_REQUESTS_WAITING_MAX; n += 1)
      await db.execute({
        sql: `INSERT INTO portfolio_link_mails (email, mailbox, domain, status, next_attempt_ms, created_ms) VALUES (?, ?, 'x.example', 'pending', ?, ?)`,
        args: [`a${n}@x.example`, `a${n}@x.example`, clock, clock],
      });
    expect(await handler.handle('ann@victim.example', fromClient(1))).toEqual({ state: { kind: 'answered' }, outcome: 'over-budget' });
    expect(await jobs()).toBe(LINK_REQUESTS_WAITING_MAX);
    await drain();
    expect((await handler.handle('bob@victim.example', fromClient(1))).outcome).toBe('queued');
  });

  it('keeps a revoked person revoked under another spelling of their mailbox', async () => {
    const handler = requests();
    await handler.handle('ann@victim.example', fromClient(1));
    await drain();
    await db.execute(
      "INSERT INTO organisation_people (organisation_id, email, email_key, created_ms, revoked_ms) VALUES (1, 'ann@victim.example', 'ann@victim.example', 1, 1)",
    );
    clock += 2 * 60 * 60_000;
    for (const variant of ['ann+x@victim.example', 'Ann@Victim.example.']) await handler.handle(variant, fromClient(2));
    await drain();
    expect(sent).toEqual(['ann@victim.example']);
    expect((await orm(db).select().from(portfolioLinkMails)).map((job) => job.lastError ?? job.status)).toEqual([
      'sent',
      'revoked',
      'revoked',
    ]);
  });
});
