'use server';

import { refresh } from 'next/cache';
import { cookies } from 'next/headers';
import type { ConfirmOutcome } from '@/app/(claims)/_components/confirm-instruction';
import type { SurveyBookingState } from '@/lib/survey-booking-state';
import { claimPages } from '@/server/claims/claim-pages';
import { INSTRUCTION_CONFIRM_COOKIE, confirmInstructionFromMailbox } from '@/server/claims/instruction-proof';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';

/** The status page's "Confirm the instruction for …", bound to the claim's reference: the cookie the acknowledgement's link set proves the mailbox. */
export async function confirmInstruction(reference: string, _previous: ConfirmOutcome, _form: FormData): Promise<ConfirmOutcome> {
  const confirmed = await confirmInstructionFromMailbox(reference, (await cookies()).get(INSTRUCTION_CONFIRM_COOKIE)?.value);
  return confirmed ? 'confirmed' : 'not-confirmed';
}

/**
 * The status page's survey buttons (book, move, cancel), bound to the claim's reference: only the
 * claim's own cookie changes its visit. The page is drawn again so its stage above says so too.
 */
export async function changeSurveyVisit(reference: string, _previous: SurveyBookingState, form: FormData): Promise<SurveyBookingState> {
  const state = await claimPages().surveyForm(reference, (await cookies()).get(CLAIM_SESSION_COOKIE.status)?.value, form);
  refresh();
  return state;
}
