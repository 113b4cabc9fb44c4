import type { Metadata } from 'next';
import { cookies, headers } from 'next/headers';
import { AddPhotos, type LaterPhotosNotice } from '@/app/(claims)/_components/add-photos';
import { ConfirmInstruction } from '@/app/(claims)/_components/confirm-instruction';
import { changeSurveyVisit, confirmInstruction } from '@/app/(claims)/claims/[reference]/actions';
import { SurveyBooking } from '@/app/(claims)/_components/survey-booking';
import { surveyBookingText } from '@/content/survey-booking';
import { ClaimStatusView } from '@/app/(claims)/_components/claim-status-view';
import { DeadLink } from '@/app/(claims)/_components/dead-link';
import { DryingDocuments } from '@/app/(claims)/_components/drying-documents';
import { DryingSection, type DryingSectionProps } from '@/app/(claims)/_components/drying-section';
import { trackPage } from '@/content/claims';
import { laterPhotosText } from '@/content/later-photos';
import { instructionProofText } from '@/content/instruction-proof';
import { hasCertificate, hasStatement } from '@/lib/drying-documents';
import { claimPages } from '@/server/claims/claim-pages';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';
import { setPageStatus } from '@/server/edge/page-status.mjs';
import { portfolioSessionFrom } from '@/server/portfolio/portfolio-exchange';
import { INSTRUCTION_CONFIRM_COOKIE, instructionToConfirm } from '@/server/claims/instruction-proof';
import { claimStatusPath } from '@/lib/claim-paths.mjs';
import { portfolioClaimStatus } from '@/server/portfolio/portfolio-page';

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

/**
 * The customer's status page, opened by the link in the acknowledgement (its token traded for a cookie)
 * or by the look-up; or, for a claim of the instructing organisation whose portfolio's cookie the
 * browser has, as that organisation sees it (the status alone: the photos and the drying documents are
 * the customer's, under the customer's own cookie).
 */
export default async function ClaimStatusPage({
  params,
  searchParams,
}: {
  params: Promise<{ reference: string }>;
  searchParams: Promise<Query>;
}) {
  const { reference } = await params;
  const jar = await cookies();
  const opened = await claimPages().statusBySession(reference, jar.get(CLAIM_SESSION_COOKIE.status)?.value);
  if (!opened) {
    const host = (await headers()).get('host');
    const instructed = await portfolioClaimStatus(
      reference,
      portfolioSessionFrom((name) => jar.get(name)?.value, host),
    );
    if (instructed)
      return (
        <div className="mx-auto max-w-3xl px-4 py-12">
          <ClaimStatusView status={instructed.status} headingLevel={1} Drying={DryingSection} />
        </div>
      );
    setPageStatus(404);
    return <DeadLink purpose="status" />;
  }
  const { status } = opened;
  const survey = await claimPages().surveyBySession(reference, jar.get(CLAIM_SESSION_COOKIE.status)?.value);
  // An instruction opened by its acknowledgement's link (its cookie): its sender may confirm it here.
  const instruction = await instructionToConfirm(reference, jar.get(INSTRUCTION_CONFIRM_COOKIE)?.value);
  const Drying = (props: DryingSectionProps) => (
    <DryingSection {...props}>
      <DryingDocuments reference={status.reference} statement={hasStatement(props.drying)} certificate={hasCertificate(status.timeline)} />
    </DryingSection>
  );
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <ClaimStatusView status={status} headingLevel={1} Drying={Drying} />
      {instruction ? (
        <section aria-labelledby="confirm-instruction" className="mt-8 space-y-2 rounded-md border border-slate-300 bg-white p-4">
          <h2 id="confirm-instruction" className="text-xl font-semibold text-brand-900">
            {instructionProofText.heading}
          </h2>
          <ConfirmInstruction
            confirm={confirmInstruction.bind(null, status.reference)}
            page={claimStatusPath(status.reference)}
            waiting={instruction.waiting}
            button={instructionProofText.button(instruction.organisation)}
            confirmed={instructionProofText.confirmed(instruction.organisation)}
          >
            <p className="text-slate-700">{instructionProofText.body(instruction.organisation)}</p>
          </ConfirmInstruction>
        </section>
      ) : null}
      {survey ? (
        <section aria-labelledby="survey-booking" className="mt-8 space-y-2 rounded-md border border-slate-300 bg-white p-4">
          <h2 id="survey-booking" className="text-xl font-semibold text-brand-900">
            {survey.appointment ? surveyBookingText.bookedHeading : surveyBookingText.heading}
          </h2>
          <SurveyBooking
            act={changeSurveyVisit.bind(null, status.reference)}
            page={claimStatusPath(status.reference)}
            initial={survey.state}
            calendar={`${claimStatusPath(status.reference)}/survey.ics`}
          />
        </section>
      ) : null}
      <AddPhotos reference={opened.status.reference} notice={noticeOf(await searchParams, opened.status.reference)} />
    </div>
  );
}
