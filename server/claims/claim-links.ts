import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Client } from '@libsql/client';
import { eq, max, sql } from 'drizzle-orm';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { orm } from '@/server/base/db';
import { claimLinkUses, claimStageChanges, enquiries, siteSecrets } from '@/server/base/db-schema';

/**
 * The signed links of a claim: the customer's status page (`status`) and the company's staff page
 * (`update`). A token is the enquiry's id and an HMAC of the purpose, the id and the enquiry's own
 * random link key, under the site's `claim-links` secret: unguessable, tied to that one enquiry (a
 * restored database that reused the id has another key), unchanged by a re-send of the enquiry, gone
 * with the enquiry when retention or an erasure deletes it, and revoked for every enquiry at once by a
 * new secret (rotateClaimLinks), for one enquiry by a new link key (revokeClaimLinks). The staff link
 * also expires STAFF_LINK_DAYS after the claim last moved (staffLinkExpiresAt).
 */
export type ClaimLinkPurpose = 'status' | 'update';
/**
 * What else a claim's key signs: `instruction`, the cookie the status link sets beside its session while
 * an instruction waits for its sender's confirmation (server/claims/instruction-proof.ts).
 */
export type ClaimTokenPurpose = ClaimLinkPurpose | 'instruction';

const SECRET_NAME = 'claim-links';
const MAC_CHARACTERS = 32;
const TOKEN_PATTERN = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{32})$/;

async function secretOf(db: Client): Promise<Buffer> {
  const [row] = await orm(db).select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The claim links secret is missing from the database (migration 0013 makes it).');
  return row.value;
}

const macOf = (secret: Buffer, purpose: ClaimTokenPurpose, id: number, linkKey: string) =>
  createHmac('sha256', secret).update(`${purpose}:${id}:${linkKey}`).digest('base64url').slice(0, MAC_CHARACTERS);

/** The token of an enquiry's link for `purpose`; null when the enquiry is not there. */
export async function claimLinkToken(db: Client, purpose: ClaimTokenPurpose, enquiryId: number): Promise<string | null> {
  const [row] = await orm(db).select({ key: enquiries.linkKey }).from(enquiries).where(eq(enquiries.id, enquiryId));
  if (!row?.key) return null;
  return `${enquiryId}.${macOf(await secretOf(db), purpose, enquiryId, row.key)}`;
}

/** The enquiry a token opens for `purpose`, or null for anything else (malformed, forged, revoked, deleted). */
export async function claimOfToken(db: Client, purpose: ClaimTokenPurpose, token: string): Promise<number | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const [row] = await orm(db).select({ key: enquiries.linkKey }).from(enquiries).where(eq(enquiries.id, id));
  if (!row?.key) return null;
  const expected = Buffer.from(macOf(await secretOf(db), purpose, id, row.key));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

/** The enquiry's link key, or null when the enquiry is not there. */
async function linkKeyOf(db: Client, enquiryId: number): Promise<string | null> {
  const [row] = await orm(db).select({ key: enquiries.linkKey }).from(enquiries).where(eq(enquiries.id, enquiryId));
  return row?.key ?? null;
}

/**
 * Days a staff link works after the claim last moved: its notification, each change of stage (each
 * sends the customer's e-mail unless kept quiet, and a CRM's change comes from the company's own
 * system) or the operator's renewal. A claim nobody touched for a month is either finished or needs a
 * call, and a link forgotten in a mailbox stops being a key to e-mail its customer.
 */
export const STAFF_LINK_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

/** When the enquiry's staff link stops working, or null when the enquiry is not there. */
export async function staffLinkExpiresAt(db: Client, enquiryId: number): Promise<number | null> {
  const [row] = await orm(db)
    .select({ receivedMs: enquiries.receivedMs, renewedMs: enquiries.staffLinkRenewedMs })
    .from(enquiries)
    .where(eq(enquiries.id, enquiryId));
  if (!row) return null;
  // Its own query: drizzle writes a column unqualified, so a correlated subquery's `id` would be the changes' own.
  const [changed] = await orm(db)
    .select({ ms: max(claimStageChanges.changedMs) })
    .from(claimStageChanges)
    .where(eq(claimStageChanges.enquiryId, enquiryId));
  return Math.max(row.receivedMs, row.renewedMs ?? 0, changed?.ms ?? 0) + STAFF_LINK_DAYS * DAY_MS;
}

/** The staff link works STAFF_LINK_DAYS from now again (the operator's `--staff-link`); false when the enquiry is not there. */
export async function renewStaffLink(db: Client, enquiryId: number, now: number): Promise<boolean> {
  const done = await orm(db).update(enquiries).set({ staffLinkRenewedMs: now }).where(eq(enquiries.id, enquiryId));
  return done.rowsAffected > 0;
}

/** Whether a link of `purpose` to this enquiry works at `now` (the status link lives as long as the claim). */
async function linkIsLive(db: Client, purpose: ClaimLinkPurpose, enquiryId: number, now: number): Promise<boolean> {
  if (purpose === 'status') return true;
  const expiresAt = await staffLinkExpiresAt(db, enquiryId);
  return expiresAt !== null && now < expiresAt;
}

/** The enquiry a token opens for `purpose` at `now`: claimOfToken, and a staff link not yet expired. */
export async function claimOfLiveToken(db: Client, purpose: ClaimLinkPurpose, token: string, now: number): Promise<number | null> {
  const id = await claimOfToken(db, purpose, token);
  return id !== null && (await linkIsLive(db, purpose, id, now)) ? id : null;
}

/** A new link key for one enquiry: both its links (and the pages they opened) stop working. False when it is not there. */
export async function revokeClaimLinks(db: Client, enquiryId: number): Promise<boolean> {
  const done = await orm(db)
    .update(enquiries)
    .set({ linkKey: randomBytes(24).toString('base64url') })
    .where(eq(enquiries.id, enquiryId));
  return done.rowsAffected > 0;
}

/**
 * How long a page opened by a link stays open without its link: a working day, so a page left open
 * over lunch still saves; after it, the link in the e-mail opens it again.
 */
export const CLAIM_SESSION_SECONDS = 12 * 60 * 60;

const sessionMacOf = (secret: Buffer, purpose: ClaimLinkPurpose, id: number, linkKey: string, expiresMs: number) =>
  createHmac('sha256', secret).update(`session:${purpose}:${id}:${linkKey}:${expiresMs}`).digest('base64url').slice(0, MAC_CHARACTERS);
const SESSION_PATTERN = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{32})$/;

/**
 * What a link's token is traded for when it is opened: the value of a short-lived cookie for that one
 * enquiry and purpose, its expiry and an HMAC under the same secret and link key (so a rotation or a
 * revocation ends it too). It carries no token: the link's own token never leaves the first request.
 */
export async function claimSessionValue(db: Client, purpose: ClaimLinkPurpose, enquiryId: number, now: number): Promise<string | null> {
  const key = await linkKeyOf(db, enquiryId);
  if (!key) return null;
  const expiresMs = now + CLAIM_SESSION_SECONDS * 1000;
  return `${expiresMs}.${sessionMacOf(await secretOf(db), purpose, enquiryId, key, expiresMs)}`;
}

/** Whether a cookie's value opens this enquiry for `purpose` at `now` (and, for the staff page, its link has not expired). */
export async function sessionOpensClaim(
  db: Client,
  purpose: ClaimLinkPurpose,
  enquiryId: number,
  value: string | undefined,
  now: number,
): Promise<boolean> {
  const match = SESSION_PATTERN.exec(value ?? '');
  if (!match) return false;
  const expiresMs = Number(match[1]);
  if (!(now < expiresMs)) return false;
  const key = await linkKeyOf(db, enquiryId);
  if (!key) return false;
  const expected = Buffer.from(sessionMacOf(await secretOf(db), purpose, enquiryId, key, expiresMs));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return linkIsLive(db, purpose, enquiryId, now);
}

/**
 * The enquiry a claim page's cookie opens for `purpose`, by the reference in the page's address (the
 * page itself, or the status page's photos under it); null for anything else.
 */
export async function claimOfSession(
  db: Client,
  purpose: ClaimLinkPurpose,
  reference: string,
  session: string | undefined,
  now: number,
): Promise<number | null> {
  const normalised = reference.toUpperCase();
  if (!isEnquiryReference(normalised)) return null;
  const id = enquiryIdOf(normalised);
  return (await sessionOpensClaim(db, purpose, id, session, now)) ? id : null;
}

/** A new secret: every claim link sent so far stops working. */
export async function rotateClaimLinks(db: Client): Promise<void> {
  await orm(db)
    .insert(siteSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32) })
    .onConflictDoUpdate({ target: siteSecrets.name, set: { value: randomBytes(32) } });
}

export type ClaimLinkUse = 'opened' | 'saved' | 'photos';

/**
 * Keeps a use of a claim's link with its enquiry, counted per minute: every use is kept, and a link
 * opened over and over cannot grow the table by more than a row a minute. Never fails the page it is on.
 */
export async function recordLinkUse(db: Client, enquiryId: number, link: ClaimLinkPurpose, use: ClaimLinkUse, now: number): Promise<void> {
  const minuteMs = now - (now % 60_000);
  try {
    await orm(db)
      .insert(claimLinkUses)
      .values({ enquiryId, link, use, minuteMs })
      .onConflictDoUpdate({
        target: [claimLinkUses.enquiryId, claimLinkUses.link, claimLinkUses.use, claimLinkUses.minuteMs],
        set: { uses: sql`${claimLinkUses.uses} + 1` },
      });
  } catch (error) {
    console.error('[claims] Could not keep a use of a claim link:', error instanceof Error ? error.message : error);
  }
}
