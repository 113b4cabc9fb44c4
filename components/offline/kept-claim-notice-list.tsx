'use client';

import { useEffect, useState } from 'react';
import { keptClaimNoticeText as text } from '@/content/kept-claim-notices';
import { followKeptClaims } from '@/components/offline/kept-claim-outcomes';
import type { ClaimOutcome } from '@/lib/offline/protocol';

/**
 * Loaded after the page's load event (kept-claim-notices.tsx): registers the service worker and says
 * what became of a claim kept on this phone (sent, with its reference; refused, and back in the form;
 * or deleted unsent after 30 days).
 */
export function KeptClaimNoticeList() {
  const [notices, setNotices] = useState<ClaimOutcome[]>([]);

  useEffect(() => {
    if ('serviceWorker' in navigator) return followKeptClaims((outcomes) => setNotices((shown) => [...shown, ...outcomes]));
  }, []);

  if (notices.length === 0) return null;

  const dismiss = (key: string) => setNotices((shown) => shown.filter((notice) => notice.enquiryKey !== key));

  return (
    <div role="status" className="mx-auto max-w-3xl space-y-3 px-4 pt-6">
      {notices.map((notice) => (
        <div
          key={notice.enquiryKey}
          className={`rounded-md border p-4 ${notice.kind === 'sent' ? 'border-green-700 bg-green-50 text-green-900' : 'border-red-700 bg-red-50 text-red-950'}`}
          data-testid="kept-claim-notice"
        >
          {notice.kind === 'sent' ? (
            <p className="font-semibold">{notice.reference ? text.sent(notice.reference) : text.sentNoReference}</p>
          ) : notice.kind === 'expired' ? (
            <p className="font-semibold">
              {text.expired(
                new Date(notice.keptAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'Europe/London' }),
              )}{' '}
              <a href="/contact#contact-form" className="prose-link font-semibold">
                {text.formLink}
              </a>
            </p>
          ) : (
            <>
              <p className="font-semibold">{text.refused(notice.message)}</p>
              <p className="mt-2">
                {notice.wordsDropped ? text.refusedForgotten : text.refusedNext}{' '}
                {/* A full load, so the form starts from the draft this claim was put back into. */}
                <a href="/contact#contact-form" className="prose-link font-semibold">
                  {text.formLink}
                </a>
              </p>
            </>
          )}
          <button type="button" onClick={() => dismiss(notice.enquiryKey)} className="mt-3 text-sm font-semibold underline">
            {text.dismiss}
          </button>
        </div>
      ))}
    </div>
  );
}
