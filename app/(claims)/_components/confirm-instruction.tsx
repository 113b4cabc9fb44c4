'use client';

import { useActionState, type ReactNode } from 'react';
import { instructionProofText } from '@/content/instruction-proof';

/** What a press of the confirm button came to: nothing yet, the instruction proven now or before, or a refusal. */
export type ConfirmOutcome = 'waiting' | 'confirmed' | 'not-confirmed';

type Props = {
  /** The page's action, bound to the claim: answers with the outcome, shown in place (with or without the page's script). */
  confirm: (previous: ConfirmOutcome, form: FormData) => Promise<ConfirmOutcome>;
  /** The page's own path: the form's action attribute before hydration. */
  page: string;
  /** Whether the instruction still waits for proof (else it shows as confirmed). */
  waiting: boolean;
  button: string;
  confirmed: string;
  /** What the form says before it is pressed. */
  children?: ReactNode;
};

/** A button that proves an instruction is its organisation's: its sender's on the status page, the company's on the staff page. */
export function ConfirmInstruction({ confirm, page, waiting, button, confirmed, children }: Props) {
  const [state, action, pending] = useActionState(confirm, waiting ? 'waiting' : 'confirmed', page);
  if (state === 'confirmed')
    return (
      <p role="status" className="font-semibold text-slate-800" data-testid="instruction-confirmed">
        {confirmed}
      </p>
    );
  return (
    <div className="space-y-3">
      {children}
      <form action={action}>
        {/* A field, so the action posts a multipart form as the page's other forms do. */}
        <input type="hidden" name="confirm" value="instruction" />
        <button type="submit" className="btn-primary" disabled={pending}>
          {button}
        </button>
      </form>
      <p role="alert" className="font-semibold text-red-700">
        {state === 'not-confirmed' ? instructionProofText.notConfirmed : null}
      </p>
    </div>
  );
}
