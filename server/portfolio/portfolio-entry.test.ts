// What /portfolio does with a browser, against a real database: the claims to a live session; to a
// browser that brought a link, the button that opens it (or, used or too old, the one that sends a new
// one); what pressing them and signing out do; and the session's cookie.
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orm } from '@/server/base/db';
import { organisationDomains, organisationPeople, organisations, portfolioAccessLog, portfolioSessions } from '@/server/base/db-schema';
import { linkStanding, newPortfolioLink, openPortfolioLink, viewerOfSession } from '@/server/portfolio/portfolio-access';
import {
  browserFamily,
  openWaitingLink,
  portfolioEntry,
  sendNewLink,
  signOut,
  signOutEverywhere,
} from '@/server/portfolio/portfolio-entry';
import { portfolioSessionCookie, portfolioSessionFrom } from '@/server/portfolio/portfolio-exchange';
import type { PortfolioSource } from '@/server/portfolio/portfolio-page';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const HOUR_MS = 60 * 60_000;
const T0 = Date.parse('2026-03-02T10:00:00Z');
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const source: PortfolioSource = {
  async *rows() {},
  summary: async () => [],
};
const at = (now: number) => ({ db: async () => db, now: () => now });
const page = (now = T0) => ({ ...at(now), source });
const logOf = async () =>
  (await orm(db).select().from(portfolioAccessLog).orderBy(portfolioAccessLog.id)).map(({ personId, action, detail }) => [
    personId,
    action,
    detail,
  ]);

/** A person of Example Mutual (mutual.example); null: its office link. */
async function person(email: string | null) {
  let [org] = await orm(db).select({ id: organisations.id }).from(organisations).where(eq(organisations.name, 'Example Mutual'));
  if (!org) {
    [org] = await orm(db)
      .insert(organisations)
      .values({ name: 'Example Mutual', createdMs: T0, updatedMs: T0 })
      .returning({ id: organisations.id });
    await orm(db).insert(organisationDomains).values({ domain: 'mutual.example', organisationId: org!.id });
  }
  const [row] = await orm(db)
    .insert(organisationPeople)
    .values({ organisationId: org!.id, email, emailKey: email, createdMs: T0 })
    .returning({ id: organisationPeople.id });
  return row!.id;
}

describe('what /portfolio shows', () => {
  it('the open button to a fresh link, even signed in; the claims to a live session; the dead link otherwise', async () => {
    const ann = await person('ann@mutual.example');
    const link = await newPortfolioLink(db, ann, T0);
    expect(await portfolioEntry(undefined, link, {}, page())).toEqual({ kind: 'open-link', organisationName: 'Example Mutual' });
    // Showing the button uses nothing.
    expect(await linkStanding(db, link, T0)).toMatchObject({ kind: 'fresh' });

    const session = (await openWaitingLink(link, FIREFOX, at(T0)))!;
    expect(await portfolioEntry(session, undefined, {}, page())).toMatchObject({
      kind: 'view',
      view: { organisationName: 'Example Mutual' },
    });
    // A used link waiting beside a live session: the claims.
    expect(await portfolioEntry(session, link, {}, page())).toMatchObject({ kind: 'view' });
    // A fresh link brought to a signed-in browser (perhaps another person's): its button first.
    expect(await portfolioEntry(session, await newPortfolioLink(db, ann, T0), {}, page())).toEqual({
      kind: 'open-link',
      organisationName: 'Example Mutual',
    });

    expect(await portfolioEntry(undefined, undefined, {}, page())).toEqual({ kind: 'dead' });
    expect(await portfolioEntry(undefined, 'A'.repeat(43), {}, page())).toEqual({ kind: 'dead' });
    expect(await portfolioEntry('A'.repeat(43), 'not-a-token', {}, page())).toEqual({ kind: 'dead' });
  });

  it('a used or too old link: a new one a press away, but for an office link (no address) a call', async () => {
    const ann = await person('ann@mutual.example');
    const office = await person(null);
    const used = await newPortfolioLink(db, ann, T0);
    await openWaitingLink(used, FIREFOX, at(T0));
    const old = await newPortfolioLink(db, ann, T0);
    const officeLink = await newPortfolioLink(db, office, T0);
    const later = T0 + 24 * HOUR_MS;
    expect(await portfolioEntry(undefined, used, {}, page(T0 + 1))).toEqual({ kind: 'used-link', office: false });
    expect(await portfolioEntry(undefined, old, {}, page(later))).toEqual({ kind: 'used-link', office: false });
    expect(await portfolioEntry(undefined, officeLink, {}, page(later))).toEqual({ kind: 'used-link', office: true });
    // No new link for an office link, nor for one that no longer stands (nothing is asked for).
    expect(await sendNewLink(officeLink, new Headers(), at(later))).toBeNull();
    expect(await sendNewLink('A'.repeat(43), new Headers(), at(later))).toBeNull();
    expect(await sendNewLink(undefined, new Headers(), at(later))).toBeNull();

    // Revoked: the dead link, with nothing to offer.
    await orm(db).update(organisationPeople).set({ revokedMs: later }).where(eq(organisationPeople.id, ann));
    expect(await portfolioEntry(undefined, old, {}, page(later))).toEqual({ kind: 'dead' });
    expect(await sendNewLink(old, new Headers(), at(later))).toBeNull();
  });
});

describe('“Open my claims”', () => {
  it('uses the waiting link once: a session kept with its browser family, and the opening logged', async () => {
    const ann = await person('ann@mutual.example');
    const link = await newPortfolioLink(db, ann, T0);
    const session = await openWaitingLink(link, FIREFOX, at(T0 + 1000));
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await viewerOfSession(db, session!, T0 + 2000))?.personId).toBe(ann);
    const [row] = await orm(db).select().from(portfolioSessions);
    expect(row).toMatchObject({ personId: ann, createdMs: T0 + 1000, browser: 'Firefox' });
    expect(await logOf()).toEqual([[ann, 'opened', null]]);

    // Pressed again (another tab), or with no link or a dead one: nothing.
    expect(await openWaitingLink(link, FIREFOX, at(T0 + 3000))).toBeNull();
    expect(await openWaitingLink(undefined, FIREFOX, at(T0 + 3000))).toBeNull();
    expect(await openWaitingLink('A'.repeat(43), FIREFOX, at(T0 + 3000))).toBeNull();
    expect(await orm(db).select().from(portfolioSessions)).toHaveLength(1);
    expect(await logOf()).toEqual([[ann, 'opened', null]]);
  });
});

describe('signing out', () => {
  it('“Sign out” ends this browser’s session alone, and is logged', async () => {
    const ann = await person('ann@mutual.example');
    const here = (await openWaitingLink(await newPortfolioLink(db, ann, T0), FIREFOX, at(T0)))!;
    const there = (await openWaitingLink(await newPortfolioLink(db, ann, T0), 'Safari', at(T0)))!;
    await signOut(here, at(T0 + 1000));
    expect(await viewerOfSession(db, here, T0 + 2000)).toBeNull();
    expect(await viewerOfSession(db, there, T0 + 2000)).not.toBeNull();
    expect((await logOf()).at(-1)).toEqual([ann, 'signed-out', 'this browser']);
    // With no session, or one already ended: nothing ended, nothing logged.
    const logged = (await logOf()).length;
    await signOut(undefined, at(T0 + 3000));
    await signOut(here, at(T0 + 3000));
    expect(await logOf()).toHaveLength(logged);
  });

  it('“Sign out everywhere” ends every session of the person and their unopened links; no one else’s', async () => {
    const ann = await person('ann@mutual.example');
    const cat = await person('cat@mutual.example');
    const here = (await openWaitingLink(await newPortfolioLink(db, ann, T0), FIREFOX, at(T0)))!;
    const there = (await openWaitingLink(await newPortfolioLink(db, ann, T0), 'Safari', at(T0)))!;
    const waiting = await newPortfolioLink(db, ann, T0);
    const catSession = (await openWaitingLink(await newPortfolioLink(db, cat, T0), FIREFOX, at(T0)))!;
    await signOutEverywhere(here, at(T0 + 1000));
    expect(await viewerOfSession(db, here, T0 + 2000)).toBeNull();
    expect(await viewerOfSession(db, there, T0 + 2000)).toBeNull();
    expect(await openPortfolioLink(db, waiting, T0 + 2000, 'Firefox')).toEqual({ kind: 'used-or-old' });
    expect(await viewerOfSession(db, catSession, T0 + 2000)).not.toBeNull();
    expect((await logOf()).at(-1)).toEqual([ann, 'signed-out', 'everywhere']);
    // With a session that opens nothing: nothing.
    const logged = (await logOf()).length;
    await signOutEverywhere(
      catSession.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
      at(T0 + 3000),
    );
    await signOutEverywhere(undefined, at(T0 + 3000));
    expect(await viewerOfSession(db, catSession, T0 + 3000)).not.toBeNull();
    expect(await logOf()).toHaveLength(logged);
  });
});

describe('the session’s cookie', () => {
  it('is __Host- prefixed, Secure, HttpOnly and Strict on https, at Path=/, kept as long as browsers keep one', () => {
    expect(portfolioSessionCookie('value', true)).toEqual({
      name: '__Host-portfolio',
      value: 'value',
      options: { path: '/', maxAge: 400 * 24 * 60 * 60, httpOnly: true, sameSite: 'strict', secure: true },
    });
    expect(portfolioSessionCookie('value', false)).toMatchObject({ name: 'portfolio', options: { secure: false, path: '/' } });
  });

  it('is read by the name the request’s host gives it', () => {
    const jar = new Map([
      ['portfolio', 'plain'],
      ['__Host-portfolio', 'prefixed'],
    ]);
    // A loopback host is plain http whatever the site's address.
    expect(portfolioSessionFrom((name) => jar.get(name), '127.0.0.1:3000')).toBe('plain');
    expect(portfolioSessionFrom((name) => jar.get(name), 'localhost:3000')).toBe('plain');
  });
});

describe('the browser family', () => {
  it('names the engine people know a User-Agent by', () => {
    const agents: [string | null, string][] = [
      [FIREFOX, 'Firefox'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
        'Firefox',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
        'Edge',
      ],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
        'Chrome',
      ],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari'],
      ['curl/8.5.0', 'Other'],
      [null, 'Other'],
    ];
    for (const [agent, family] of agents) expect([agent, browserFamily(agent)]).toEqual([agent, family]);
  });
});
