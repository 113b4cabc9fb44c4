import 'server-only';
import type { Client } from '@libsql/client';
import { getDb } from '@/server/base/db';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { clientAddress, rateLimitKey } from '@/server/edge/client-address.mjs';
import { viewerOfSession } from '@/server/portfolio/portfolio-access';
import { portfolioSessionFrom } from '@/server/portfolio/portfolio-exchange';

// An instruction sent by someone signed in with an organisation's portfolio cookie is proven that
// organisation's (server/claims/instruction-proof.ts): the ways in read the cookie with the request.

/** The value of the portfolio's session cookie in a request's Cookie header, by the name its Host gives it, if it has one. */
export function portfolioCookieOf(headers: Headers): string | undefined {
  const cookies = new Map<string, string>();
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name && !cookies.has(name)) cookies.set(name, value.join('='));
  }
  return portfolioSessionFrom((name) => cookies.get(name), headers.get('host'));
}

/** The organisation whose portfolio a cookie's value opens at `now`, or null. */
export async function signedInOrganisation(db: Client, session: string | undefined, now: number): Promise<number | null> {
  if (!session) return null;
  return (await viewerOfSession(db, session, now))?.organisationId ?? null;
}

/** Who the contact form says sends an instruction: the signed-in person's address and organisation. */
export type SignedInSender = { email: string; organisation: string };

/** Asks for the sender a client may make in an hour: a form opened again and again, not a probe of sessions. */
export const SENDER_ASKS_PER_CLIENT = { limit: 60, windowMs: 60 * 60_000 } as const;

/** The person a request's portfolio cookie signs in at `now`, or null (no cookie, or it opens nothing). */
export async function signedInSenderOf(db: Client, headers: Headers, now: number): Promise<SignedInSender | null> {
  const viewer = await viewerOfSession(db, portfolioCookieOf(headers), now);
  return viewer?.email ? { email: viewer.email, organisation: viewer.organisationName } : null;
}

const ANSWER_HEADERS = { 'Cache-Control': 'no-store', Vary: 'Cookie' };

/**
 * GET /api/portfolio/sender: `{ sender: { email, organisation } }` for a request signed in with an
 * organisation's portfolio cookie, `{ sender: null }` for any other; past a client's hourly budget 429
 * before any session is read.
 */
export function createSenderAnswer(deps: { db?: () => Promise<Client>; now?: () => number } = {}) {
  const now = deps.now ?? Date.now;
  const openDb = deps.db ?? getDb;
  const perClient = createRateLimiter({ ...SENDER_ASKS_PER_CLIENT, now });
  return async function answer(request: Request): Promise<Response> {
    const budget = perClient.hit(rateLimitKey(clientAddress(request.headers)));
    if (!budget.allowed) {
      const headers = { ...ANSWER_HEADERS, 'Retry-After': String(budget.retryAfterSeconds) };
      return Response.json({ sender: null }, { status: 429, headers });
    }
    try {
      return Response.json({ sender: await signedInSenderOf(await openDb(), request.headers, now()) }, { headers: ANSWER_HEADERS });
    } catch (error) {
      console.error('[portfolio] Could not read who is signed in:', error instanceof Error ? error.message : error);
      return Response.json({ sender: null }, { status: 503, headers: { ...ANSWER_HEADERS, 'Retry-After': '60' } });
    }
  };
}
