import 'server-only';
import type { Client } from '@libsql/client';
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
