'use client';

import { useEffect, useState } from 'react';
import { claimFormText } from '@/content/contact';
import { PORTFOLIO_SENDER_PATH } from '@/lib/portfolio/portfolio-paths.mjs';
import { apiBaseUrl } from '@/lib/public-env';

type Sender = { email: string; organisation: string };

function senderIn(body: unknown): Sender | null {
  const sender = (body as { sender?: unknown } | null)?.sender as Partial<Sender> | null | undefined;
  return typeof sender?.email === 'string' && typeof sender.organisation === 'string'
    ? { email: sender.email, organisation: sender.organisation }
    : null;
}

/**
 * "Sending as …" for someone signed in with an organisation's portfolio cookie, asked once the form is
 * about an instruction. The cookie is the site's own, so only a form that sends to the site itself
 * (no NEXT_PUBLIC_API_URL elsewhere) can prove an instruction by it. The line informs; the proof is the
 * server's, with or without it (and without JavaScript).
 */
export function SignedInSender({ instructing }: { instructing: boolean }) {
  const [sender, setSender] = useState<Sender | null>(null);
  const ask = instructing && apiBaseUrl === '';
  useEffect(() => {
    if (!ask) return;
    const controller = new AbortController();
    fetch(PORTFOLIO_SENDER_PATH, { cache: 'no-store', signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: unknown) => setSender(senderIn(body)))
      .catch(() => undefined);
    return () => controller.abort();
  }, [ask]);
  if (!sender) return null;
  return (
    <p className="rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-slate-800" data-testid="signed-in-sender">
      {claimFormText.sendingAs(sender.email, sender.organisation)}
    </p>
  );
}
