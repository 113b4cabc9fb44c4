import 'server-only';
import type { Client } from '@libsql/client';
import { PORTFOLIO_COOKIE, viewerOfSession } from '@/server/portfolio/portfolio-access';

// An instruction sent by someone signed in with an organisation's portfolio cookie is proven that
// organisation's (server/claims/instruction-proof.ts): the ways in read the cookie with the request.

/** The value of the portfolio cookie in a request's Cookie header, if it has one. */
export function portfolioCookieOf(headers: Headers): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === PORTFOLIO_COOKIE) return value.join('=');
  }
  return undefined;
}

/** The organisation whose portfolio a cookie's value opens at `now`, or null. */
export async function signedInOrganisation(db: Client, session: string | undefined, now: number): Promise<number | null> {
  if (!session) return null;
  return (await viewerOfSession(db, session, now))?.organisationId ?? null;
}
