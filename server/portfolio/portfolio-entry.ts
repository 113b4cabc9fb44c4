import 'server-only';
import type { Client } from '@libsql/client';
import type { LinkRequestState } from '@/lib/portfolio/link-request';
import { getDb, writeBatch } from '@/server/base/db';
import { linkRequests } from '@/server/portfolio/link-request';
import {
  endAccessOf,
  endSession,
  linkStanding,
  logPortfolioAccess,
  openPortfolioLink,
  viewerOfSession,
} from '@/server/portfolio/portfolio-access';
import { portfolioView, type PortfolioDeps, type PortfolioView } from '@/server/portfolio/portfolio-page';

/**
 * What /portfolio shows a browser, and what its buttons do: to a browser that brought a link not yet
 * used (its token waiting in a cookie, server/portfolio/portfolio-exchange.ts), the button that opens
 * it; else the claims to a live session; else, for a link used or too old, the button that e-mails a new
 * one to the same address; to anyone else, that the link no longer works.
 */
export type PortfolioEntry =
  | { kind: 'view'; view: PortfolioView }
  /** A link not yet used: whose claims it opens, so no one presses a link someone else sent them unawares. */
  | { kind: 'open-link'; organisationName: string }
  | { kind: 'used-link'; office: boolean }
  | { kind: 'dead' };

type Deps = { db?: () => Promise<Client>; now?: () => number };

export async function portfolioEntry(
  session: string | undefined,
  linkToken: string | undefined,
  query: Record<string, string | string[] | undefined>,
  deps: PortfolioDeps,
): Promise<PortfolioEntry> {
  // A link brought fresh comes first, even to a signed-in browser: it may be another person's.
  const link = await linkStanding(await (deps.db ?? getDb)(), linkToken, (deps.now ?? Date.now)());
  if (link.kind === 'fresh') return { kind: 'open-link', organisationName: link.holder.organisationName };
  const view = await portfolioView(session, query, deps);
  if (view) return { kind: 'view', view };
  if (link.kind === 'used-or-old') return { kind: 'used-link', office: link.holder.email === null };
  return { kind: 'dead' };
}

/** The browser family a User-Agent names, as `--log` shows a session: the engine people know it by. */
export function browserFamily(userAgent: string | null | undefined): string {
  const agent = userAgent ?? '';
  if (/\bEdg(?:e|A|iOS)?\//.test(agent)) return 'Edge';
  if (/\bFirefox\/|\bFxiOS\//.test(agent)) return 'Firefox';
  if (/\bChrome\/|\bChromium\/|\bCriOS\//.test(agent)) return 'Chrome';
  if (/\bSafari\//.test(agent) && /\bVersion\//.test(agent)) return 'Safari';
  return 'Other';
}

/**
 * "Open my claims" pressed: uses the waiting link and starts a session; its cookie's value, or null when
 * the link was used meanwhile, is too old or no longer stands (the page then says which).
 */
export async function openWaitingLink(linkToken: string | undefined, userAgent: string | null, deps: Deps = {}): Promise<string | null> {
  if (!linkToken) return null;
  const db = await (deps.db ?? getDb)();
  const now = (deps.now ?? Date.now)();
  const opening = await openPortfolioLink(db, linkToken, now, browserFamily(userAgent));
  if (opening.kind !== 'opened') return null;
  await logPortfolioAccess(db, { organisationId: opening.viewer.organisationId, personId: opening.viewer.personId, action: 'opened', now });
  return opening.session;
}

/**
 * "Email me a new link" on a used or old link's page: the same request as /insurers makes for the
 * person's address, with its budgets; nothing for an office link (no address) or a link that no longer stands.
 */
export async function sendNewLink(
  linkToken: string | undefined,
  headers: Headers,
  deps: Deps & { requests?: ReturnType<typeof linkRequests> } = {},
): Promise<LinkRequestState | null> {
  const link = await linkStanding(await (deps.db ?? getDb)(), linkToken, (deps.now ?? Date.now)());
  if (link.kind === 'dead' || link.holder.email === null) return null;
  return (await (deps.requests ?? linkRequests()).handle(link.holder.email, headers)).state;
}

/** "Sign out": ends this browser's session. */
export async function signOut(session: string | undefined, deps: Deps = {}): Promise<void> {
  const db = await (deps.db ?? getDb)();
  const now = (deps.now ?? Date.now)();
  const viewer = await viewerOfSession(db, session, now);
  await endSession(db, session);
  if (viewer)
    await logPortfolioAccess(db, {
      organisationId: viewer.organisationId,
      personId: viewer.personId,
      action: 'signed-out',
      detail: 'this browser',
      now,
    });
}

/** "Sign out everywhere": ends every session of this session's person, and any link of theirs not yet opened. */
export async function signOutEverywhere(session: string | undefined, deps: Deps = {}): Promise<void> {
  const db = await (deps.db ?? getDb)();
  const now = (deps.now ?? Date.now)();
  const viewer = await viewerOfSession(db, session, now);
  if (!viewer) return;
  await writeBatch(db, [...endAccessOf(db, [viewer.personId])]);
  await logPortfolioAccess(db, {
    organisationId: viewer.organisationId,
    personId: viewer.personId,
    action: 'signed-out',
    detail: 'everywhere',
    now,
  });
}
