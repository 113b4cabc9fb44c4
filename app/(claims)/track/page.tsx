import { lookUpClaimStatus } from '@/app/(claims)/track/actions';
import { ClaimLookUp } from '@/app/(claims)/_components/claim-look-up';
import { PageIntro } from '@/components/ui/page-intro';
import { trackPage } from '@/content/claims';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('track');

export default function TrackPage() {
  return (
    <>
      <PageIntro title={trackPage.title} eyebrow={trackPage.eyebrow}>
        <p>{trackPage.intro}</p>
      </PageIntro>
      <div className="mx-auto max-w-3xl px-4 py-12">
        <ClaimLookUp lookUp={lookUpClaimStatus} />
      </div>
    </>
  );
}
