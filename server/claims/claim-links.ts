import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Client } from '@libsql/client';
import { eq, sql } from 'drizzle-orm';
import { orm } from '@/server/db';
import { claimLinkUses, enquiries, siteSecrets } from '@/server/db-schema';

/**
 * The signed links of a claim: the customer's status page (`status`) and the company's staff page
 * (`update`). A token is the enquiry's id and an HMAC of the purpose, the id and the enquiry's own
 * random link key, under the site's `claim-links` secret: unguessable, tied to that one enquiry (a
 * restored database that reused the id has another key), unchanged by a re-send of the enquiry, gone
 * with the enquiry when retention or an erasure deletes it, and revoked for every enquiry at once by a
 * new secret (rotateClaimLinks).
 */
export type ClaimLinkPurpose = 'status' | 'update';

const SECRET_NAME = 'claim-links';
const MAC_CHARACTERS = 32;
const TOKEN_PATTERN = /^([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{32})$/;

async function secretOf(db: Client): Promise<Buffer> {
  const [row] = await orm(db).select({ value: siteSecrets.value }).from(siteSecrets).where(eq(siteSecrets.name, SECRET_NAME));
  if (!row) throw new Error('The claim links secret is missing from the database (migration 0013 makes it).');
  return row.value;
}

const macOf = (secret: Buffer, purpose: ClaimLinkPurpose, id: number, linkKey: string) =>
  createHmac('sha256', secret).update(`${purpose}:${id}:${linkKey}`).digest('base64url').slice(0, MAC_CHARACTERS);

/** The token of an enquiry's link for `purpose`; null when the enquiry is not there. */
export async function claimLinkToken(db: Client, purpose: ClaimLinkPurpose, enquiryId: number): Promise<string | null> {
  const [row] = await orm(db).select({ key: enquiries.linkKey }).from(enquiries).where(eq(enquiries.id, enquiryId));
  if (!row?.key) return null;
  return `${enquiryId}.${macOf(await secretOf(db), purpose, enquiryId, row.key)}`;
}

/** The enquiry a token opens for `purpose`, or null for anything else (malformed, forged, revoked, deleted). */
export async function claimOfToken(db: Client, purpose: ClaimLinkPurpose, token: string): Promise<number | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const [row] = await orm(db).select({ key: enquiries.linkKey }).from(enquiries).where(eq(enquiries.id, id));
  if (!row?.key) return null;
  const expected = Buffer.from(macOf(await secretOf(db), purpose, id, row.key));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
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
