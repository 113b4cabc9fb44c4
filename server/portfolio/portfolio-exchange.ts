import 'server-only';
import type { Client } from '@libsql/client';
import { portfolioOpeningText } from '@/content/portfolio';
import { PORTFOLIO_PATH } from '@/lib/portfolio/portfolio-paths.mjs';
import { getDb } from '@/server/base/db';
import { linkOpeningResponse, malformedLinkResponse, secureClaimCookie } from '@/server/claims/link-exchange';
import {
  logPortfolioAccess,
  markPortfolioUse,
  PORTFOLIO_COOKIE,
  portfolioSessionValue,
  viewerOfLinkToken,
} from '@/server/portfolio/portfolio-access';

const TOKEN_SHAPE = /^[1-9][0-9]{0,11}\.[A-Za-z0-9_-]{32}$/;
/**
 * As long as browsers keep a cookie (400 days): the page renders on the server and cannot set it again
 * on each view, so the browser must not drop it 30 days after the link was opened. What ends it is the
 * server's check, 30 days after the person last used the link or the page (portfolio-access.ts).
 */
const COOKIE_SECONDS = 400 * 24 * 60 * 60;

/** The Set-Cookie of the portfolio: Path=/ so the claims' status pages it links to open with it too. */
export function portfolioCookie(value: string, https: boolean): string {
  return [
    `${PORTFOLIO_COOKIE}=${value}`,
    'Path=/',
    `Max-Age=${COOKIE_SECONDS}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(https ? ['Secure'] : []),
  ].join('; ');
}

/**
 * GET /portfolio/open/<token>, the link an organisation's person is given: traded for the portfolio's
 * cookie exactly as a claim's link is (server/claims/link-exchange.ts, which says why it is a 200 page
 * that moves on by a meta refresh rather than a redirect). A token that opens nothing sets no cookie and
 * clears none, and moves on the same way, to a page that opens with a cookie the browser already has or
 * says the link no longer works. Opening it counts as a use (the link lives 30 days from the last).
 */
export async function exchangePortfolioLink(
  token: string,
  deps: { db?: () => Promise<Client>; now?: () => number; host?: string | null; https?: boolean } = {},
): Promise<Response> {
  if (!TOKEN_SHAPE.test(token)) return malformedLinkResponse();
  const now = (deps.now ?? Date.now)();
  const db = await (deps.db ?? getDb)();
  const viewer = await viewerOfLinkToken(db, token, now);
  const value = viewer ? await portfolioSessionValue(db, viewer.personId) : null;
  const opens = viewer !== null && value !== null;
  if (opens) {
    await markPortfolioUse(db, viewer.personId, now);
    await logPortfolioAccess(db, { organisationId: viewer.organisationId, personId: viewer.personId, action: 'opened', now });
  }
  return linkOpeningResponse(
    PORTFOLIO_PATH,
    portfolioOpeningText,
    opens ? [portfolioCookie(value, deps.https ?? secureClaimCookie(deps.host))] : [],
  );
}
