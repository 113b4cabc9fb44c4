import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import {
  changeSurveyVisitForCompany,
  confirmInstructionForCompany,
  recordDryingVisit,
  saveClaimUpdate,
} from '@/app/(claims)/claims/[reference]/update/actions';
import { StaffSurvey } from '@/app/(claims)/_components/staff-survey';
import { ClaimStatusView } from '@/app/(claims)/_components/claim-status-view';
import { DeadLink } from '@/app/(claims)/_components/dead-link';
import { DryingSection } from '@/app/(claims)/_components/drying-section';
import { StaffUpdateForm } from '@/app/(claims)/_components/staff-update-form';
import { StaffVisitForm } from '@/app/(claims)/_components/staff-visit-form';
import { staffVisitText } from '@/content/drying';
import { staffPage } from '@/content/staff-page';
import { instructionProofText } from '@/content/instruction-proof';
import { ConfirmInstruction } from '@/app/(claims)/_components/confirm-instruction';
import { staffPagePath } from '@/lib/claim-paths.mjs';
import { driedRefusal } from '@/lib/drying';
import { claimPages, newFormToken } from '@/server/claims/claim-pages';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';
import { setPageStatus } from '@/server/edge/page-status.mjs';

export const metadata: Metadata = { title: staffPage.title, robots: { index: false, follow: false } };

const WORDS = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
  timeZoneName: 'short',
});
/** An instant as people read it, to the second and with its zone (the hour the clocks go back is shown twice): "25 Oct 2026, 01:30:00 GMT". */
const londonWords = (iso: string) => WORDS.format(new Date(iso));

/** The company's staff page for one claim, opened by the link in its notification (its token traded for a cookie); it names the claim by reference only. */
export default async function ClaimUpdatePage({ params }: { params: Promise<{ reference: string }> }) {
  const { reference } = await params;
  const session = (await cookies()).get(CLAIM_SESSION_COOKIE.update)?.value;
  const [status, survey] = await Promise.all([claimPages().staffClaim(reference, session), claimPages().staffSurvey(reference, session)]);
  if (!status || !survey) {
    setPageStatus(404);
    return <DeadLink purpose="update" />;
  }
  return (
    <div className="mx-auto max-w-3xl space-y-10 px-4 py-12">
      <h1 className="text-2xl font-bold text-brand-900">{staffPage.title}</h1>
      <p className="text-lg text-slate-700">{staffPage.forClaim(status.reference)}</p>
      {status.instruction?.kind === 'proven' ? (
        <p className="text-slate-700" data-testid="instruction-standing">
          {instructionProofText.proven(status.instruction.organisation, status.instruction.proof)}
        </p>
      ) : null}
      {status.instruction?.kind === 'unconfirmed' ? (
        <ConfirmInstruction
          confirm={confirmInstructionForCompany.bind(null, status.reference)}
          page={staffPagePath(status.reference)}
          waiting
          button={instructionProofText.companyButton(status.instruction.organisation)}
          confirmed={instructionProofText.proven(status.instruction.organisation, 'company')}
        >
          <p className="text-slate-700" data-testid="instruction-standing">
            {instructionProofText.unconfirmed(status.instruction.domain, status.instruction.organisation)}
          </p>
        </ConfirmInstruction>
      ) : null}
      <StaffUpdateForm
        save={saveClaimUpdate.bind(null, status.reference)}
        current={status.stage}
        page={staffPagePath(status.reference)}
        formToken={newFormToken()}
        driedAllowed={driedRefusal(status.drying?.locations ?? []) === null}
      />
      <section aria-labelledby="staff-survey-heading" className="space-y-4">
        <h2 id="staff-survey-heading" className="text-xl font-bold text-brand-900">
          {staffPage.survey.heading}
        </h2>
        <StaffSurvey
          act={changeSurveyVisitForCompany.bind(null, status.reference)}
          page={staffPagePath(status.reference)}
          booked={survey.booked}
          windows={survey.windows}
          formToken={survey.formToken}
        />
        <h3 className="text-lg font-semibold text-brand-900">{staffPage.survey.dayHeading}</h3>
        {survey.days.map((day) => (
          <div key={day.date} data-testid="staff-day">
            <h4 className="font-semibold text-slate-900">{day.heading}</h4>
            {day.visits.length === 0 ? (
              <p className="text-slate-700">{staffPage.survey.dayNone}</p>
            ) : (
              <ul className="list-disc space-y-1 pl-6 text-slate-800">
                {day.visits.map((visit) => (
                  <li key={`${visit.reference}-${visit.window}`}>
                    {visit.reference}, {visit.words.split(', ').slice(1).join(', ')}:{' '}
                    {[...(visit.address ?? '').split('\n'), visit.postcode ?? '']
                      .map((part) => part.trim())
                      .filter(Boolean)
                      .join(', ') || staffPage.survey.noAddress}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </section>
      <section aria-labelledby="staff-visit-heading" className="space-y-4">
        <h2 id="staff-visit-heading" className="text-xl font-bold text-brand-900">
          {staffVisitText.heading}
        </h2>
        <StaffVisitForm
          save={recordDryingVisit.bind(null, status.reference)}
          page={staffPagePath(status.reference)}
          formToken={newFormToken()}
          locations={(status.drying?.locations ?? []).map(({ location, material, scale, goal }) => ({ location, material, scale, goal }))}
          machines={status.runningMachines.map(({ id, kind, model, watts, count, on }) => ({
            id,
            kind,
            model,
            watts,
            count,
            on,
            onWords: londonWords(on),
          }))}
          dried={status.stage === 'dried'}
        />
      </section>
      <ClaimStatusView status={status} Drying={DryingSection} />
    </div>
  );
}
