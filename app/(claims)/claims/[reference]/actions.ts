'use server';

import { cookies } from 'next/headers';
import type { ConfirmOutcome } from '@/app/(claims)/_components/confirm-instruction';
import { INSTRUCTION_CONFIRM_COOKIE, confirmInstructionFromMailbox } from '@/server/claims/instruction-proof';

/** The status page's "Confirm the instruction for …", bound to the claim's reference: the cookie the acknowledgement's link set proves the mailbox. */
export async function confirmInstruction(reference: string, _previous: ConfirmOutcome, _form: FormData): Promise<ConfirmOutcome> {
  const confirmed = await confirmInstructionFromMailbox(reference, (await cookies()).get(INSTRUCTION_CONFIRM_COOKIE)?.value);
  return confirmed ? 'confirmed' : 'not-confirmed';
}
