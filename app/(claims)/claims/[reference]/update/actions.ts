'use server';

import { cookies } from 'next/headers';
import type { ConfirmOutcome } from '@/app/(claims)/_components/confirm-instruction';
import type { StaffUpdateState } from '@/lib/claim-stages';
import type { StaffVisitState } from '@/lib/drying-form';
import type { StaffSurveyState } from '@/lib/survey-booking-state';
import { refresh } from 'next/cache';
import { claimPages } from '@/server/claims/claim-pages';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';
import { confirmInstructionByCompany } from '@/server/claims/instruction-proof';

/** The staff page's Save, bound to the claim's reference by the page; the cookie the link was traded for opens it. */
export async function saveClaimUpdate(reference: string, _previous: StaffUpdateState, form: FormData): Promise<StaffUpdateState> {
  return claimPages().saveUpdate(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value, form);
}

/** The staff page's "Record a visit", bound like the Save. */
export async function recordDryingVisit(reference: string, _previous: StaffVisitState, form: FormData): Promise<StaffVisitState> {
  return claimPages().recordVisit(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value, form);
}

/** The staff page's "Confirm that … instructed this claim", bound like the Save: the company vouches for the organisation the sender's address names. */
export async function confirmInstructionForCompany(reference: string, _previous: ConfirmOutcome, _form: FormData): Promise<ConfirmOutcome> {
  const confirmed = await confirmInstructionByCompany(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value, Date.now());
  return confirmed ? 'confirmed' : 'not-confirmed';
}

/** The staff page's survey buttons ("no access", cancel), bound like the Save; the page is drawn again so its day list and stage say so. */
export async function changeSurveyVisitForCompany(
  reference: string,
  _previous: StaffSurveyState,
  form: FormData,
): Promise<StaffSurveyState> {
  const state = await claimPages().staffSurveyForm(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value, form);
  refresh();
  return state;
}
