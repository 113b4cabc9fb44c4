import type { Metadata } from 'next';
import { AddPhotos, type LaterPhotosNotice } from '@/components/claims/add-photos';
import { ClaimStatusView } from '@/components/claims/claim-status-view';
import { laterPhotosText, statusText, trackPage } from '@/content/claims';
import { claimPages } from '@/server/claims/claim-pages';

export const metadata: Metadata = { title: trackPage.title, robots: { index: false, follow: false } };

type Query = Record<string, string | string[] | undefined>;

/** What the photos posted without script came to, from the fixed list the answer's redirect carries. */
function noticeOf(query: Query, reference: string): LaterPhotosNotice | undefined {
  const outcome = query.photos;
  if (outcome === 'added') {
    const count = Number(query.count);
    return Number.isInteger(count) && count > 0 ? { kind: 'added', message: laterPhotosText.added(count, reference) } : undefined;
  }
  if (typeof outcome === 'string' && Object.hasOwn(laterPhotosText.outcomes, outcome))
    return { kind: 'refused', message: laterPhotosText.outcomes[outcome as keyof typeof laterPhotosText.outcomes] };
  return undefined;
}

/** The status by the signed link in the acknowledgement: rendered per request, no look-up needed. */
export default async function ClaimStatusPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Query>;
}) {
  const { token } = await params;
  const status = await claimPages().statusByLink(token);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      {status ? (
        <>
          <ClaimStatusView status={status} headingLevel={1} />
          <AddPhotos token={token} notice={noticeOf(await searchParams, status.reference)} />
        </>
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
