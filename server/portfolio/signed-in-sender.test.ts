// Who the contact form says an instruction is sent as: the person a request's portfolio cookie signs in,
// against a real database, and nobody once that cookie no longer opens the organisation's view.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secureClaimCookie } from '@/server/claims/link-exchange';
import { linkFor, registerOrganisation, suspendOrganisation } from '@/server/portfolio/organisations';
import { linkStanding, newPortfolioLink, openPortfolioLink, portfolioCookieName } from '@/server/portfolio/portfolio-access';
import { SENDER_ASKS_PER_CLIENT, createSenderAnswer, signedInSenderOf } from '@/server/portfolio/signed-in-sender';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const NOW = Date.parse('2026-12-01T09:00:00Z');
const COOKIE = portfolioCookieName(secureClaimCookie(null));
let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
  await registerOrganisation(db, { name: 'Łódź & Glasgow Adjusters', domains: ['adjusters.example'], standards: [] }, NOW);
});
afterEach(() => cleanup());

/** The Cookie header of the person at `address` after opening a new link of theirs. */
async function signedIn(address: string): Promise<Headers> {
  const link = await linkFor(db, 'adjusters.example', address, NOW);
  if ('error' in link) throw new Error(link.error);
  const standing = await linkStanding(db, link.token, NOW);
  if (standing.kind === 'dead' || standing.holder.personId === null) throw new Error('the printed link is dead');
  const opening = await openPortfolioLink(db, await newPortfolioLink(db, standing.holder.personId, NOW), NOW, 'Firefox');
  if (opening.kind !== 'opened') throw new Error(`the link did not open: ${opening.kind}`);
  return new Headers({ cookie: `theme=dark; ${COOKIE}=${opening.session}` });
}

describe('signedInSenderOf', () => {
  it('names the signed-in person’s address and organisation, and nobody without a cookie or with a forged one', async () => {
    const headers = await signedIn('Eilidh.NicAoidh@adjusters.example');
    expect(await signedInSenderOf(db, headers, NOW)).toEqual({
      email: 'Eilidh.NicAoidh@adjusters.example',
      organisation: 'Łódź & Glasgow Adjusters',
    });
    expect(await signedInSenderOf(db, new Headers(), NOW)).toBeNull();
    expect(await signedInSenderOf(db, new Headers({ cookie: `${COOKIE}=${'A'.repeat(43)}` }), NOW)).toBeNull();
    expect(await signedInSenderOf(db, new Headers({ cookie: `${COOKIE}=not a token` }), NOW)).toBeNull();
  });

  it('names nobody once the organisation is suspended, or 30 days after the session’s last use', async () => {
    const headers = await signedIn('desk@adjusters.example');
    expect(await signedInSenderOf(db, headers, NOW + 29 * 86_400_000)).not.toBeNull();
    expect(await signedInSenderOf(db, headers, NOW + 31 * 86_400_000)).toBeNull();
    await suspendOrganisation(db, 'adjusters.example', NOW);
    expect(await signedInSenderOf(db, headers, NOW)).toBeNull();
  });
});

describe('GET /api/portfolio/sender', () => {
  it('answers whom the cookie signs in, no-store; past a client’s budget 429 before reading any session, other clients unaffected', async () => {
    const answer = createSenderAnswer({ db: async () => db, now: () => NOW });
    const headers = await signedIn('desk@adjusters.example');
    const ask = (client: string) => {
      const from = new Headers(headers);
      from.set('x-homecare-client-address', client);
      return answer(new Request('http://localhost/api/portfolio/sender', { headers: from }));
    };
    const first = await ask('203.0.113.9');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ sender: { email: 'desk@adjusters.example', organisation: 'Łódź & Glasgow Adjusters' } });
    for (let asked = 1; asked < SENDER_ASKS_PER_CLIENT.limit; asked += 1) expect((await ask('203.0.113.9')).status).toBe(200);
    const over = await ask('203.0.113.9');
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ sender: null });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('198.51.100.7')).status).toBe(200);
  });

  it('answers 503, never a 500, when the database cannot be read', async () => {
    const answer = createSenderAnswer({ db: async () => Promise.reject(new Error('disk gone')), now: () => NOW });
    const failed = await answer(new Request('http://localhost/api/portfolio/sender'));
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ sender: null });
  });
});
