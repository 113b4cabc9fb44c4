// The budgets of "Your claims with us" beyond the client's own: per mailbox (`+tags` counted as one),
// per domain and for the whole site, spent for every valid address before the database is read.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orm } from '@/server/base/db';
import { organisationDomains, organisations, portfolioLinkMails } from '@/server/base/db-schema';
import {
  createLinkRequests,
  LINK_REQUESTS_PER_DOMAIN,
  LINK_REQUESTS_PER_MAILBOX,
  LINK_REQUESTS_PER_SITE,
  mailboxKey,
} from '@/server/portfolio/link-request';
import { createRateLimiter } from '@/server/base/rate-limiter';
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
const requests = (site: { limit: number; windowMs: number } = LINK_REQUESTS_PER_SITE) =>
  createLinkRequests({ db: async () => db, now: () => clock, perSite: createRateLimiter({ ...site, now: () => clock }) });
const jobs = async () => (await orm(db).select().from(portfolioLinkMails)).length;

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

  it('bounds one registered domain’s mailboxes together, and the site as a whole; strangers’ addresses spend neither', async () => {
    const handler = requests();
    // Random addresses at domains no one registered: answered the same, and no registered domain's budget spent.
    for (let n = 0; n < 60; n += 1)
      expect((await handler.handle(`someone${n}@elsewhere-${n}.example`, fromClient(n % 200))).outcome).toBe('not-registered');
    const outcomes = [];
    for (let n = 0; n < LINK_REQUESTS_PER_DOMAIN.limit + 5; n += 1)
      outcomes.push((await handler.handle(`person${n}@victim.example`, fromClient(n % 200))).outcome);
    expect(outcomes.filter((outcome) => outcome === 'queued')).toHaveLength(LINK_REQUESTS_PER_DOMAIN.limit);
    expect(outcomes.slice(-5)).toEqual(Array(5).fill('over-budget'));

    const site = requests({ limit: 4, windowMs: 60 * 60_000 });
    const bySite = [];
    for (let n = 0; n < 6; n += 1) bySite.push((await site.handle(`other${n}@victim.example`, fromClient(n))).outcome);
    expect(bySite).toEqual(['queued', 'queued', 'queued', 'queued', 'over-budget', 'over-budget']);
  });

  it('keeps a revoked person revoked under another spelling of their mailbox', async () => {
    const handler = requests();
    expect((await handler.handle('ann@victim.example', fromClient(1))).outcome).toBe('queued');
    await db.execute("UPDATE organisation_people SET revoked_ms = 1 WHERE email = 'ann@victim.example'");
    for (const variant of ['ann+x@victim.example', 'Ann@Victim.example.'])
      expect((await handler.handle(variant, fromClient(2))).outcome, variant).toBe('revoked');
    expect(await jobs()).toBe(1);
  });
});
