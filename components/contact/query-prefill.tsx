'use client';

import { useEffect } from 'react';
import { useSearchParams } from 'next/navigation';
import { contactPrefillOf, type ContactPrefill } from '@/lib/contact-prefill';

/**
 * Reads the page's query (lib/contact-prefill.ts) and hands what it asks for to the form; renders
 * nothing. Kept apart from the form and inside its own Suspense boundary, so the form itself is still
 * prerendered while the query is only known in the browser.
 */
export function QueryPrefill({ onPrefill }: { onPrefill: (prefill: ContactPrefill) => void }) {
  // Null outside the App Router's context (the form's unit tests render it alone).
  const search = (useSearchParams() as URLSearchParams | null)?.toString() ?? '';
  useEffect(() => {
    const prefill = contactPrefillOf(new URLSearchParams(search));
    if (prefill) onPrefill(prefill);
  }, [search, onPrefill]);
  return null;
}
