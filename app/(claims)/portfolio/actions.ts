'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { INSURERS_PAGE_PATH } from '@/server/edge/path-rules.mjs';
import { secureClaimCookie } from '@/server/claims/link-exchange';
import { PORTFOLIO_PATH } from '@/lib/portfolio/portfolio-paths.mjs';
import type { LinkRequestState } from '@/lib/portfolio/link-request-state';
import { portfolioCookieName } from '@/server/portfolio/portfolio-access';
import { openWaitingLink, sendNewLink, signOut, signOutEverywhere } from '@/server/portfolio/portfolio-entry';
import { PORTFOLIO_LINK_COOKIE, portfolioSessionCookie } from '@/server/portfolio/portfolio-exchange';

// The portfolio page's buttons, posted to the page itself (server actions), with or without its script.

async function browser() {
  const [jar, request] = await Promise.all([cookies(), headers()]);
  const https = secureClaimCookie(request.get('host'));
  return { jar, request, https, session: jar.get(portfolioCookieName(https))?.value, link: jar.get(PORTFOLIO_LINK_COOKIE)?.value };
}

/** "Open my claims": the waiting link used, this browser signed in; the page then shows the claims or why not. */
export async function openMyClaims(): Promise<void> {
  const { jar, request, https, link } = await browser();
  const session = await openWaitingLink(link, request.get('user-agent'));
  if (session !== null) {
    const cookie = portfolioSessionCookie(session, https);
    jar.set(cookie.name, cookie.value, cookie.options);
    jar.delete({ name: PORTFOLIO_LINK_COOKIE, path: PORTFOLIO_PATH });
  }
  redirect(PORTFOLIO_PATH);
}

/** "Email me a new link", for a link used or too old: answered in place, like the request on /insurers. */
export async function emailNewLink(_previous: LinkRequestState): Promise<LinkRequestState> {
  const { request, link } = await browser();
  return (await sendNewLink(link, request)) ?? { kind: 'answered' };
}

async function signedOut(end: (session: string | undefined) => Promise<void>) {
  const { jar, https, session } = await browser();
  await end(session);
  jar.delete({ name: portfolioCookieName(https), path: '/', secure: https });
  redirect(INSURERS_PAGE_PATH);
}

export async function signOutHere(): Promise<void> {
  await signedOut((session) => signOut(session));
}

export async function signOutOfEveryBrowser(): Promise<void> {
  await signedOut((session) => signOutEverywhere(session));
}
