import 'server-only';
import { trackPage } from '@/content/claims';
import type { TrackState } from '@/lib/claim-stages';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { clientAddress, rateLimitKey } from '@/server/edge/client-address.mjs';
import { claimSessionValue, type ClaimLinkPurpose } from '@/server/claims/claim-links';
import { claimStatus, lookUpClaim } from '@/server/claims/claim-status';
import type { RateLimiter } from '@/server/base/rate-limiter';
import { text, type ClaimPageContext } from './page-context';

/** Failed look-ups a client may make in an hour before it waits; a correct one from another client is unaffected. */
export const FAILED_LOOK_UPS = { limit: 10, windowMs: 60 * 60_000 } as const;

/** The track page's look-up: a claim by its reference and e-mail, within the client's budget of failed tries. */
export async function lookUpByForm(
  { db }: ClaimPageContext,
  failedLookUps: RateLimiter,
  form: FormData,
  headers: Headers,
): Promise<TrackState> {
  const values = { reference: text(form, 'reference').slice(0, 40), email: text(form, 'email').slice(0, 320) };
  const refused = (message: string): TrackState => ({ kind: 'refused', message, values });
  const key = rateLimitKey(clientAddress(headers));
  const budget = failedLookUps.peek(key);
  if (!budget.allowed) return refused(trackPage.tooMany(Math.max(1, Math.ceil(budget.retryAfterSeconds / 60))));
  const reference = values.reference.trim().toUpperCase();
  const email = values.email.trim();
  if (!reference || !email) return refused(trackPage.incomplete);
  try {
    const client = await db();
    const id = await lookUpClaim(client, reference, email);
    const status = id === null ? null : await claimStatus(client, id);
    if (status) return { kind: 'found', status };
  } catch (error) {
    console.error('[claims] Could not look up a claim:', error instanceof Error ? error.message : error);
    return refused(trackPage.unavailable);
  }
  failedLookUps.hit(key);
  return refused(trackPage.notFound);
}

/** A new session for a claim's page (the look-up found it): the cookie's value, or null. */
export async function sessionFor(
  { db, now }: ClaimPageContext,
  purpose: ClaimLinkPurpose,
  reference: string,
): Promise<{ enquiryId: number; value: string } | null> {
  if (!isEnquiryReference(reference)) return null;
  const enquiryId = enquiryIdOf(reference);
  const value = await claimSessionValue(await db(), purpose, enquiryId, now());
  return value ? { enquiryId, value } : null;
}
