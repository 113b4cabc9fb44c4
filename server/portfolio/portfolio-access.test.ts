// Portfolio links and sessions against a real database: a link opens once, within its hours, each
// opening a session of its own; who a session opens for, for how long; and everything that ends them.
import { createHash } from 'node:crypto';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orm, writeBatch } from '@/server/base/db';
import { organisationDomains, organisationPeople, organisations, portfolioLinks, portfolioSessions } from '@/server/base/db-schema';
import {
  endAccessOf,
  endSession,
  linkStanding,
  markPortfolioUse,
  newPortfolioLink,
  openPortfolioLink,
  portfolioCookieName,
  PORTFOLIO_LINK_HOURS,
  PORTFOLIO_SESSION_DAYS,
  SESSIONS_PER_PERSON,
  standingPerson,
  viewerOfSession,
  type LinkOpening,
} from '@/server/portfolio/portfolio-access';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const T0 = Date.parse('2026-03-02T10:00:00Z');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

/** An organisation (made once by name) with `domain` among its domains. */
async function organisationWith(name: string, domain: string) {
  const [org] = await orm(db)
    .insert(organisations)
    .values({ name, createdMs: T0, updatedMs: T0 })
    .onConflictDoUpdate({ target: organisations.name, set: { updatedMs: T0 } })
    .returning({ id: organisations.id });
  await orm(db).insert(organisationDomains).values({ domain, organisationId: org!.id }).onConflictDoNothing();
  return org!.id;
}

/** A person of the organisation at their address's domain (null: an office link, at `officeDomain`). */
async function person(organisation: string, email: string | null, officeDomain = 'office.example') {
  const organisationId = await organisationWith(organisation, email?.slice(email.indexOf('@') + 1) ?? officeDomain);
  const [row] = await orm(db)
    .insert(organisationPeople)
    .values({ organisationId, email, emailKey: email, createdMs: T0 })
    .returning({ id: organisationPeople.id });
  return { personId: row!.id, organisationId };
}

/** Opens a new link of the person at once: the session's cookie value. */
async function signedIn(personId: number, at = T0, browser = 'Firefox'): Promise<string> {
  const opening = await openPortfolioLink(db, await newPortfolioLink(db, personId, at), at, browser);
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  return opening.session;
}

/** A token of the right shape with its last character changed. */
const forged = (token: string) => token.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
const sessionCount = async (personId: number) =>
  (await orm(db).select().from(portfolioSessions).where(eq(portfolioSessions.personId, personId))).length;

describe('a portfolio link', () => {
  it('opens once, starting a session for its person; a second opening is used-or-old', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const token = await newPortfolioLink(db, ann.personId, T0);
    expect(token).toMatch(TOKEN);
    expect(await linkStanding(db, token, T0)).toMatchObject({ kind: 'fresh', holder: { personId: ann.personId } });

    const opened = await openPortfolioLink(db, token, T0 + 60_000, 'Firefox');
    const viewer = {
      personId: ann.personId,
      organisationId: ann.organisationId,
      organisationName: 'Loss Adjusters Ltd',
      email: 'ann@adjusters.example',
    };
    expect(opened).toEqual({ kind: 'opened', viewer, session: expect.stringMatching(TOKEN) });
    const session = (opened as Extract<LinkOpening, { kind: 'opened' }>).session;
    expect(session).not.toBe(token);
    expect(await viewerOfSession(db, session, T0 + 60_000)).toEqual({ ...viewer, sessionId: expect.any(Number) });
    const [row] = await orm(db).select().from(organisationPeople).where(eq(organisationPeople.id, ann.personId));
    expect(row?.lastUsedMs).toBe(T0 + 60_000);

    expect(await openPortfolioLink(db, token, T0 + 120_000, 'Chrome')).toEqual({ kind: 'used-or-old' });
    expect(await linkStanding(db, token, T0 + 120_000)).toMatchObject({ kind: 'used-or-old', holder: { personId: ann.personId } });
    expect(await sessionCount(ann.personId)).toBe(1);
  });

  it(`is used-or-old once ${PORTFOLIO_LINK_HOURS} hours old, opened or not`, async () => {
    expect(PORTFOLIO_LINK_HOURS).toBe(24);
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const justInTime = await newPortfolioLink(db, ann.personId, T0);
    const tooLate = await newPortfolioLink(db, ann.personId, T0);
    const end = T0 + PORTFOLIO_LINK_HOURS * HOUR_MS;
    expect(await linkStanding(db, tooLate, end - 1)).toMatchObject({ kind: 'fresh' });
    expect(await linkStanding(db, tooLate, end)).toMatchObject({ kind: 'used-or-old' });
    expect(await openPortfolioLink(db, tooLate, end, 'Firefox')).toEqual({ kind: 'used-or-old' });
    expect(await openPortfolioLink(db, justInTime, end - 1, 'Firefox')).toMatchObject({ kind: 'opened' });
    expect(await sessionCount(ann.personId)).toBe(1);
  });

  it('is dead when forged, unknown, malformed or a session’s value; a link’s token is no session', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const token = await newPortfolioLink(db, ann.personId, T0);
    const unknown = 'A'.repeat(43);
    for (const bad of [forged(token), unknown, 'not-a-token', `${token}A`, ''])
      expect([bad, await openPortfolioLink(db, bad, T0, 'Firefox')]).toEqual([bad, { kind: 'dead' }]);
    expect(await linkStanding(db, forged(token), T0)).toEqual({ kind: 'dead' });
    expect(await linkStanding(db, undefined, T0)).toEqual({ kind: 'dead' });
    // None of those used the real link.
    expect(await viewerOfSession(db, token, T0)).toBeNull();
    const session = await signedIn(ann.personId);
    expect(await openPortfolioLink(db, session, T0, 'Firefox')).toEqual({ kind: 'dead' });
    expect(await viewerOfSession(db, forged(session), T0)).toBeNull();
    expect(await viewerOfSession(db, undefined, T0)).toBeNull();
    expect(await viewerOfSession(db, 'not-a-token', T0)).toBeNull();
  });

  it('makes a session of its own at each opening, each with its browser', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const laptop = await signedIn(ann.personId, T0, 'Firefox');
    const phone = await signedIn(ann.personId, T0 + 1000, 'Safari');
    expect(laptop).not.toBe(phone);
    const laptopViewer = await viewerOfSession(db, laptop, T0 + 2000);
    const phoneViewer = await viewerOfSession(db, phone, T0 + 2000);
    expect(laptopViewer?.personId).toBe(ann.personId);
    expect(phoneViewer?.personId).toBe(ann.personId);
    expect(laptopViewer?.sessionId).not.toBe(phoneViewer?.sessionId);
    const rows = await orm(db).select().from(portfolioSessions).orderBy(portfolioSessions.id);
    expect(rows.map(({ personId, createdMs, lastUsedMs, browser }) => ({ personId, createdMs, lastUsedMs, browser }))).toEqual([
      { personId: ann.personId, createdMs: T0, lastUsedMs: T0, browser: 'Firefox' },
      { personId: ann.personId, createdMs: T0 + 1000, lastUsedMs: T0 + 1000, browser: 'Safari' },
    ]);
  });

  it('opened twice at once starts exactly one session', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const token = await newPortfolioLink(db, ann.personId, T0);
    const both = await Promise.all([
      openPortfolioLink(db, token, T0 + 1, 'Firefox'),
      openPortfolioLink(db, token, T0 + 1, 'Chrome'),
      openPortfolioLink(db, token, T0 + 1, 'Safari'),
    ]);
    expect(both.map((opening) => opening.kind).sort()).toEqual(['opened', 'used-or-old', 'used-or-old']);
    expect(await sessionCount(ann.personId)).toBe(1);
    const opened = both.find((opening) => opening.kind === 'opened') as Extract<LinkOpening, { kind: 'opened' }>;
    expect((await viewerOfSession(db, opened.session, T0 + 2))?.personId).toBe(ann.personId);
  });
});

describe('a portfolio session', () => {
  it(`works ${PORTFOLIO_SESSION_DAYS} days from its last use, each session on its own`, async () => {
    expect(PORTFOLIO_SESSION_DAYS).toBe(30);
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const used = await signedIn(ann.personId);
    const idle = await signedIn(ann.personId);
    const justBefore = T0 + PORTFOLIO_SESSION_DAYS * DAY_MS - 1;
    expect(await viewerOfSession(db, used, justBefore)).not.toBeNull();
    expect(await viewerOfSession(db, used, justBefore + 1)).toBeNull();

    const viewer = (await viewerOfSession(db, used, T0 + 20 * DAY_MS))!;
    await markPortfolioUse(db, viewer, T0 + 20 * DAY_MS);
    expect(await viewerOfSession(db, used, justBefore + 1)).not.toBeNull();
    expect(await viewerOfSession(db, used, T0 + 50 * DAY_MS - 1)).not.toBeNull();
    expect(await viewerOfSession(db, used, T0 + 50 * DAY_MS)).toBeNull();
    // The other session was not used: it ended where it would have.
    expect(await viewerOfSession(db, idle, justBefore + 1)).toBeNull();
    const [row] = await orm(db).select().from(organisationPeople).where(eq(organisationPeople.id, ann.personId));
    expect(row?.lastUsedMs).toBe(T0 + 20 * DAY_MS);
  });

  it(`is one of at most ${SESSIONS_PER_PERSON} a person: a new one ends the least recently used`, async () => {
    expect(SESSIONS_PER_PERSON).toBe(5);
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const cat = await person('Loss Adjusters Ltd', 'cat@adjusters.example');
    const catSession = await signedIn(cat.personId, T0);
    const sessions: string[] = [];
    for (let index = 0; index < SESSIONS_PER_PERSON; index += 1) sessions.push(await signedIn(ann.personId, T0 + index * 1000));
    // The first is used again: the second is now the least recently used.
    await markPortfolioUse(db, (await viewerOfSession(db, sessions[0], T0 + 10_000))!, T0 + 10_000);

    const sixth = await signedIn(ann.personId, T0 + 20_000);
    expect(await sessionCount(ann.personId)).toBe(SESSIONS_PER_PERSON);
    const live = async (values: string[]) =>
      Promise.all(values.map(async (value) => (await viewerOfSession(db, value, T0 + 30_000)) !== null));
    expect(await live([...sessions, sixth])).toEqual([true, false, true, true, true, true]);
    const seventh = await signedIn(ann.personId, T0 + 40_000);
    expect(await live([...sessions, sixth, seventh])).toEqual([true, false, false, true, true, true, true]);
    // Another person's sessions are not counted with them.
    expect(await viewerOfSession(db, catSession, T0 + 30_000)).not.toBeNull();
  });

  it('ends alone when signed out; with every other and each unopened link when the person’s access ends', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const cat = await person('Loss Adjusters Ltd', 'cat@adjusters.example');
    const [one, two, three] = [await signedIn(ann.personId), await signedIn(ann.personId), await signedIn(ann.personId)];
    const unopened = await newPortfolioLink(db, ann.personId, T0);
    const catSession = await signedIn(cat.personId);
    const catLink = await newPortfolioLink(db, cat.personId, T0);

    await endSession(db, one);
    expect(await viewerOfSession(db, one, T0 + 1)).toBeNull();
    expect(await viewerOfSession(db, two, T0 + 1)).not.toBeNull();
    // Nothing to end: no error, nothing ended.
    await endSession(db, undefined);
    await endSession(db, 'not-a-token');
    await endSession(db, forged(two));
    expect(await sessionCount(ann.personId)).toBe(2);

    await writeBatch(db, [...endAccessOf(db, [ann.personId])]);
    expect(await viewerOfSession(db, two, T0 + 1)).toBeNull();
    expect(await viewerOfSession(db, three, T0 + 1)).toBeNull();
    expect(await sessionCount(ann.personId)).toBe(0);
    // Ann still stands: her unopened link can no longer be opened, but she can ask for a new one.
    expect(await openPortfolioLink(db, unopened, T0 + 1, 'Firefox')).toEqual({ kind: 'used-or-old' });
    expect(await linkStanding(db, unopened, T0 + 1)).toMatchObject({ kind: 'used-or-old' });
    expect(await viewerOfSession(db, catSession, T0 + 1)).not.toBeNull();
    expect(await openPortfolioLink(db, catLink, T0 + 1, 'Firefox')).toMatchObject({ kind: 'opened' });
    // A link given after the end works.
    expect(await viewerOfSession(db, await signedIn(ann.personId, T0 + 2), T0 + 3)).not.toBeNull();
  });
});

describe('a person who no longer stands', () => {
  it('opens nothing once revoked: no link, no session', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const session = await signedIn(ann.personId);
    const token = await newPortfolioLink(db, ann.personId, T0);
    await orm(db).update(organisationPeople).set({ revokedMs: T0 }).where(eq(organisationPeople.id, ann.personId));
    expect(await standingPerson(db, ann.personId)).toBeNull();
    expect(await viewerOfSession(db, session, T0 + 1)).toBeNull();
    expect(await linkStanding(db, token, T0 + 1)).toEqual({ kind: 'dead' });
    expect(await openPortfolioLink(db, token, T0 + 1, 'Firefox')).toEqual({ kind: 'dead' });
    expect(await sessionCount(ann.personId)).toBe(1);
  });

  it('opens nothing while their organisation is suspended, office links too; again once it is resumed', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const office = await person('Loss Adjusters Ltd', null);
    const other = await person('Other Insurer plc', 'bob@other.example');
    const [annSession, officeSession, otherSession] = [
      await signedIn(ann.personId),
      await signedIn(office.personId),
      await signedIn(other.personId),
    ];
    const token = await newPortfolioLink(db, ann.personId, T0);
    await orm(db).update(organisations).set({ suspendedMs: T0 }).where(eq(organisations.id, ann.organisationId));
    expect(await viewerOfSession(db, annSession, T0 + 1)).toBeNull();
    expect(await viewerOfSession(db, officeSession, T0 + 1)).toBeNull();
    expect(await openPortfolioLink(db, token, T0 + 1, 'Firefox')).toEqual({ kind: 'dead' });
    expect(await standingPerson(db, office.personId)).toBeNull();
    expect((await viewerOfSession(db, otherSession, T0 + 1))?.organisationName).toBe('Other Insurer plc');

    await orm(db).update(organisations).set({ suspendedMs: null }).where(eq(organisations.id, ann.organisationId));
    expect(await openPortfolioLink(db, token, T0 + 2, 'Firefox')).toMatchObject({ kind: 'opened' });
  });

  it('opens nothing once their address’s domain is no longer one of their organisation’s', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const cat = await person('Loss Adjusters Ltd', 'cat@la.example');
    const office = await person('Loss Adjusters Ltd', null);
    const [annSession, catSession, officeSession] = [
      await signedIn(ann.personId),
      await signedIn(cat.personId),
      await signedIn(office.personId),
    ];
    const token = await newPortfolioLink(db, ann.personId, T0);
    // The domain moves to another organisation.
    const other = await organisationWith('Other Insurer plc', 'other.example');
    await orm(db).update(organisationDomains).set({ organisationId: other }).where(eq(organisationDomains.domain, 'adjusters.example'));
    expect(await standingPerson(db, ann.personId)).toBeNull();
    expect(await viewerOfSession(db, annSession, T0 + 1)).toBeNull();
    expect(await openPortfolioLink(db, token, T0 + 1, 'Firefox')).toEqual({ kind: 'dead' });
    // Nor does the other organisation see anything by them.
    expect(await linkStanding(db, token, T0 + 1)).toEqual({ kind: 'dead' });
    // A colleague at a domain it keeps, and its office link, still open.
    expect((await viewerOfSession(db, catSession, T0 + 1))?.email).toBe('cat@la.example');
    expect((await viewerOfSession(db, officeSession, T0 + 1))?.email).toBeNull();
    // Dropped altogether: the same.
    await orm(db).delete(organisationDomains).where(eq(organisationDomains.domain, 'la.example'));
    expect(await viewerOfSession(db, catSession, T0 + 2)).toBeNull();
  });
});

describe('the database', () => {
  it('holds no link’s or session’s token, only their SHA-256', async () => {
    const ann = await person('Loss Adjusters Ltd', 'ann@adjusters.example');
    const office = await person('Loss Adjusters Ltd', null);
    const opened = await newPortfolioLink(db, ann.personId, T0);
    const session = (await openPortfolioLink(db, opened, T0, 'Firefox')) as Extract<LinkOpening, { kind: 'opened' }>;
    const waiting = await newPortfolioLink(db, office.personId, T0);
    const officeSession = await signedIn(office.personId);
    const tokens = [opened, session.session, waiting, officeSession];

    const tables = (await db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((row) => String(row.name));
    expect(tables).toEqual(expect.arrayContaining(['portfolio_links', 'portfolio_sessions']));
    let everything = '';
    for (const table of tables) everything += JSON.stringify((await db.execute(`SELECT * FROM "${table}"`)).rows);
    for (const token of tokens) expect(everything).not.toContain(token);

    const sha256 = (token: string) => createHash('sha256').update(token).digest('base64url');
    const linkHashes = (await orm(db).select({ hash: portfolioLinks.tokenHash }).from(portfolioLinks)).map((row) => row.hash);
    const sessionHashes = (await orm(db).select({ hash: portfolioSessions.tokenHash }).from(portfolioSessions)).map((row) => row.hash);
    expect(linkHashes).toEqual(expect.arrayContaining([sha256(opened), sha256(waiting)]));
    expect(sessionHashes.sort()).toEqual([sha256(session.session), sha256(officeSession)].sort());
  });
});

describe('the session cookie’s name', () => {
  it('is __Host- prefixed on https only', () => {
    expect(portfolioCookieName(true)).toBe('__Host-portfolio');
    expect(portfolioCookieName(false)).toBe('portfolio');
  });
});
