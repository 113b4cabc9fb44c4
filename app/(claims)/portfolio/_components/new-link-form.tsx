'use client';

import { useActionState } from 'react';
import { portfolioLinkText } from '@/content/portfolio';
import { portfolioRequestText } from '@/content/portfolio-request';
import type { LinkRequestState } from '@/lib/portfolio/link-request-state';

const IDLE: LinkRequestState = { kind: 'idle' };

/** "Email me a new link" for a used or old link: posted to the page itself, answered in place, with or without script. */
export function NewLinkForm({ send }: { send: (previous: LinkRequestState) => Promise<LinkRequestState> }) {
  const [state, action, pending] = useActionState(send, IDLE, '/portfolio');
  return (
    <form action={action} className="space-y-4" data-testid="portfolio-new-link">
      <button type="submit" className="btn-primary" disabled={pending || state.kind === 'answered'}>
        {pending ? portfolioRequestText.sending : portfolioLinkText.used.button}
      </button>
      <div role="status" className="font-semibold text-brand-900">
        {state.kind === 'answered' ? portfolioRequestText.answered : null}
      </div>
      <div role="alert" className="font-semibold text-red-700">
        {state.kind === 'refused' ? state.message : null}
      </div>
    </form>
  );
}
