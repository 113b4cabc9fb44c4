import type { Metadata } from 'next';
import { ClaimStatusView } from '@/components/claims/claim-status-view';
import { statusText, trackPage } from '@/content/claims';
import { claimPages } from '@/server/claims/claim-pages';

export const metadata: Metadata = { title: trackPage.title, robots: { index: false, follow: false } };

/** The status by the signed link in the acknowledgement: rendered per request, no look-up needed. */
export default async function ClaimStatusPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const status = await claimPages().statusByLink(token);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      {status ? (
        <ClaimStatusView status={status} headingLevel={1} />
      ) : (
        <>
          <h1 className="text-2xl font-bold text-brand-900">{trackPage.title}</h1>
          <p className="mt-4 text-lg text-slate-700" data-testid="claim-link-refused">
            {statusText.notFound}
          </p>
        </>
      )}
    </div>
  );
}
