import 'server-only';
import type { Client } from '@libsql/client';
import { linkOpeningText } from '@/content/claims';
import { claimStatusPath, staffPagePath } from '@/lib/claim-paths.mjs';
import { enquiryReference } from '@/lib/enquiry-reference';
import { CLAIM_SESSION_SECONDS, claimOfLiveToken, claimSessionValue, type ClaimLinkPurpose } from '@/server/claims/claim-links';
import { config } from '@/server/base/config.mjs';
import { getDb } from '@/server/base/db';
import { INSTRUCTION_CONFIRM_COOKIE, instructionConfirmValue } from '@/server/claims/instruction-proof';

/** The cookie a link's token is traded for, one per purpose; its path is the one claim's page, so two claims open at once keep theirs. */
export const CLAIM_SESSION_COOKIE: Record<ClaimLinkPurpose, string> = { status: 'claim-status', update: 'claim-update' };

const TOKEN_SHAPE = /^([1-9][0-9]{0,11})\.[A-Za-z0-9_-]{32}$/;
/** 31⁶: the ids that have a reference (lib/enquiry-reference.ts). */
const ENQUIRY_ID_LIMIT = 31 ** 6;

/** The page a link of `purpose` to this enquiry opens, by its reference (no token). */
export const claimPagePath = (purpose: ClaimLinkPurpose, enquiryId: number) =>
  (purpose === 'update' ? staffPagePath : claimStatusPath)(enquiryReference(enquiryId));

const LOOPBACK_HOST = /^(?:localhost|[^:]+\.localhost|127(?:\.[0-9]{1,3}){3}|\[::1\])(?::[0-9]+)?$/i;

/**
 * Whether a claim page's cookie is `Secure`: on a site whose address is https, unless the request's
 * Host is this machine's loopback (a test or a preview on the machine itself, where no network lies
 * between browser and site). WebKit refuses a Secure cookie from plain http, even from 127.0.0.1 or
 * localhost, so the page would open nothing there. Behind a proxy the Host is the site's own (the
 * shipped nginx and Caddy pass it, and Next's server actions need it), so a deployed site keeps Secure.
 */
export function secureClaimCookie(host: string | null | undefined): boolean {
  return config().siteUrl.startsWith('https:') && !LOOPBACK_HOST.test(host ?? '');
}

/** The Set-Cookie of a claim page's session (or of another cookie `name` for that page, as long-lived). */
export function sessionCookie(
  purpose: ClaimLinkPurpose,
  enquiryId: number,
  value: string,
  https: boolean,
  name = CLAIM_SESSION_COOKIE[purpose],
): string {
  return [
    `${name}=${value}`,
    `Path=${claimPagePath(purpose, enquiryId)}`,
    `Max-Age=${CLAIM_SESSION_SECONDS}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(https ? ['Secure'] : []),
  ].join('; ');
}

/** The same cookie, for Next's cookies().set (a server action that opens a claim's page); `host`: the request's Host. */
export function claimSessionCookie(purpose: ClaimLinkPurpose, enquiryId: number, value: string, host: string | null) {
  return {
    name: CLAIM_SESSION_COOKIE[purpose],
    value,
    options: {
      path: claimPagePath(purpose, enquiryId),
      maxAge: CLAIM_SESSION_SECONDS,
      httpOnly: true,
      sameSite: 'strict' as const,
      secure: secureClaimCookie(host),
    },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The answer to a link whose token is not even shaped like one: nothing to look up. */
export const malformedLinkResponse = () =>
  new Response('Not Found\n', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });

/**
 * The page a link answers with (exchangeLink says why it is a 200 page and not a redirect): it moves on
 * to `target` by a meta refresh, with a plain link for a browser that does not, and sets the cookie the
 * token was traded for, if any. Never cached, never sent on as a Referer.
 */
export function linkOpeningResponse(target: string, text: { title: string; continue: string }, setCookies: readonly string[]): Response {
  const html = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<meta http-equiv="refresh" content="0; url=${escapeHtml(target)}">
<link rel="icon" href="data:,">
<title>${escapeHtml(text.title)}</title>
</head>
<body>
<p><a href="${escapeHtml(target)}">${escapeHtml(text.continue)}</a></p>
</body>
</html>
`;
  const headers = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return new Response(html, { status: 200, headers });
}

/**
 * GET /track/<token> and /claim-update/<token>, the links in the e-mails: the token is traded for a
 * short-lived cookie (HttpOnly, SameSite=Strict, scoped to that claim's page) and the browser moves on
 * to the page by reference. It changes nothing (mail scanners open every link). A link opened from a
 * mail client is a cross-site navigation, and a browser does not send a SameSite=Strict cookie on a
 * redirect chain that began cross-site, so a 303 would reach the page without it: this answers 200
 * with a page that moves on by itself (a meta refresh, which needs no script), a navigation from this
 * site that carries the cookie. A token that opens nothing (forged, revoked, expired) sets no cookie
 * and clears none: anyone can make a well-formed token for any claim, and it must not be able to end
 * the session a visitor has for it. It moves on the same way, to a page that opens with the cookie
 * the browser already has or else says the link no longer works. Its icon is empty: the browser leaves the page
 * at once, and a request for /favicon.ico would only be cut off.
 */
export async function exchangeLink(
  purpose: ClaimLinkPurpose,
  token: string,
  deps: { db?: () => Promise<Client>; now?: () => number; host?: string | null; https?: boolean } = {},
): Promise<Response> {
  const shape = TOKEN_SHAPE.exec(token);
  const claimed = Number(shape?.[1]);
  if (!shape || !Number.isSafeInteger(claimed) || claimed >= ENQUIRY_ID_LIMIT) return malformedLinkResponse();
  const now = (deps.now ?? Date.now)();
  const db = await (deps.db ?? getDb)();
  const id = await claimOfLiveToken(db, purpose, token, now);
  const value = id === null ? null : await claimSessionValue(db, purpose, id, now);
  const https = deps.https ?? secureClaimCookie(deps.host);
  // The acknowledgement's link of an instruction waiting for proof: its page may confirm it.
  const confirm = id !== null && value !== null && purpose === 'status' ? await instructionConfirmValue(db, id) : null;
  return linkOpeningResponse(claimPagePath(purpose, claimed), linkOpeningText, [
    ...(value === null ? [] : [sessionCookie(purpose, claimed, value, https)]),
    ...(confirm === null ? [] : [sessionCookie(purpose, claimed, confirm, https, INSTRUCTION_CONFIRM_COOKIE)]),
  ]);
}
