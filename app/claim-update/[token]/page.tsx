import type { Metadata } from 'next';
import { saveClaimUpdate } from '@/app/claim-update/[token]/actions';
import { ClaimStatusView } from '@/components/claims/claim-status-view';
import { StaffUpdateForm } from '@/components/claims/staff-update-form';
import { staffPage } from '@/content/claims';
import { STAFF_LINK_PREFIX } from '@/lib/claim-paths.mjs';
import { claimPages } from '@/server/claims/claim-pages';

export const metadata: Metadata = { title: staffPage.title, robots: { index: false, follow: false } };

/** The company's staff page for one claim, by the signed link in its notification; it names the claim by reference only. */
export default async function ClaimUpdatePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const status = await claimPages().staffClaim(token);
  return (
    <div className="mx-auto max-w-3xl space-y-10 px-4 py-12">
      <h1 className="text-2xl font-bold text-brand-900">{staffPage.title}</h1>
      {status ? (
        <>
          <p className="text-lg text-slate-700">{staffPage.forClaim(status.reference)}</p>
          <StaffUpdateForm save={saveClaimUpdate.bind(null, token)} current={status.stage} page={`${STAFF_LINK_PREFIX}${token}`} />
          <ClaimStatusView status={status} />
        </>
      ) : (
        <p className="text-lg text-slate-700" data-testid="claim-link-refused">
          {staffPage.notFound}
        </p>
      )}
    </div>
  );
}
