import 'server-only';
import { portfolioOpeningText } from '@/content/portfolio';
import { PORTFOLIO_PATH } from '@/lib/portfolio/portfolio-paths.mjs';
import { linkOpeningResponse, malformedLinkResponse, secureClaimCookie } from '@/server/claims/link-exchange';
import { portfolioCookieName } from '@/server/portfolio/portfolio-access';

/** 32 random bytes, base64url (server/portfolio/portfolio-access.ts). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The cookie a link's token waits in, on the portfolio page only, until its person presses to open it. */
export const PORTFOLIO_LINK_COOKIE = 'portfolio-link';
const LINK_COOKIE_SECONDS = 24 * 60 * 60;

/**
 * As long as browsers keep a cookie (400 days): the page renders on the server and cannot set it again
 * on each view, so the browser must not drop it while the session lives. What ends a session is the
 * server's check, 30 days after its last use (portfolio-access.ts).
 */
const SESSION_COOKIE_SECONDS = 400 * 24 * 60 * 60;

/** The session cookie for Next's cookies().set: `__Host-` on https, so Path=/ and no Domain. */
export function portfolioSessionCookie(value: string, https: boolean) {
  return {
    name: portfolioCookieName(https),
    value,
    options: { path: '/', maxAge: SESSION_COOKIE_SECONDS, httpOnly: true, sameSite: 'strict' as const, secure: https },
  };
}

/** The session cookie's value in a request, read by the name the request's Host gives it (`read`: a cookie by name). */
export function portfolioSessionFrom(read: (name: string) => string | undefined, host: string | null | undefined): string | undefined {
  return read(portfolioCookieName(secureClaimCookie(host)));
}

/**
 * GET /portfolio/open/<token>, the link an organisation's person is given. Opening it changes nothing:
 * mail scanners open every link, and a link is for one opening. Its token waits in a cookie scoped to the
 * portfolio page (HttpOnly, a day), and the browser moves on to that page by a meta refresh (why not a
 * redirect: server/claims/link-exchange.ts), where its person presses to open their claims, which uses
 * the link and starts a session (server/portfolio/portfolio-entry.ts). Nothing is looked up here, so the
 * answer is the same for every well-formed token.
 */
export function exchangePortfolioLink(token: string, deps: { host?: string | null; https?: boolean } = {}): Response {
  if (!TOKEN_SHAPE.test(token)) return malformedLinkResponse();
  const https = deps.https ?? secureClaimCookie(deps.host);
  const cookie = [
    `${PORTFOLIO_LINK_COOKIE}=${token}`,
    `Path=${PORTFOLIO_PATH}`,
    `Max-Age=${LINK_COOKIE_SECONDS}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(https ? ['Secure'] : []),
  ].join('; ');
  return linkOpeningResponse(PORTFOLIO_PATH, portfolioOpeningText, [cookie]);
}
