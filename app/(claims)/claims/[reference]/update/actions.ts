'use server';

import { cookies } from 'next/headers';
import type { StaffUpdateState } from '@/lib/claim-stages';
import type { StaffVisitState } from '@/lib/drying-form';
import { claimPages } from '@/server/claims/claim-pages';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';

/** The staff page's Save, bound to the claim's reference by the page; the cookie the link was traded for opens it. */
export async function saveClaimUpdate(reference: string, _previous: StaffUpdateState, form: FormData): Promise<StaffUpdateState> {
  return claimPages().saveUpdate(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value, form);
}

/** The staff page's "Record a visit", bound like the Save. */
export async function recordDryingVisit(reference: string, _previous: StaffVisitState, form: FormData): Promise<StaffVisitState> {
  return claimPages().recordVisit(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value, form);
}
