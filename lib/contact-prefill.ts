import { isClaimRole, isDamageType, type EnquiryFields } from '@/lib/contact-fields';

/**
 * Links into the enquiry form with its claim part open and a choice already made: `/contact?damage=
 * storm-weather` from a service page, `/contact?role=insurer` from the insurers' page, `?claim` alone to
 * open the part. A value the form does not offer is ignored, never shown.
 */
const PREFILL_PARAMS = { claim: 'claim', damage: 'damage', role: 'role' } as const;

export type ContactPrefill = { fields: Partial<Pick<EnquiryFields, 'damageType' | 'claimRole'>> };

export function contactHref(prefill: { damageType?: string | null; claimRole?: string } = {}): string {
  const query = new URLSearchParams();
  if (prefill.damageType) query.set(PREFILL_PARAMS.damage, prefill.damageType);
  if (prefill.claimRole) query.set(PREFILL_PARAMS.role, prefill.claimRole);
  if (query.size === 0) query.set(PREFILL_PARAMS.claim, 'open');
  return `/contact?${query}`;
}

/** What the query asks the form to open and choose; null when it asks nothing the form offers. */
export function contactPrefillOf(query: URLSearchParams): ContactPrefill | null {
  const damageType = query.get(PREFILL_PARAMS.damage) ?? '';
  const claimRole = query.get(PREFILL_PARAMS.role) ?? '';
  const fields: ContactPrefill['fields'] = {};
  if (isDamageType(damageType)) fields.damageType = damageType;
  if (isClaimRole(claimRole)) fields.claimRole = claimRole;
  if (Object.keys(fields).length === 0 && !query.has(PREFILL_PARAMS.claim)) return null;
  return { fields };
}
