import Link from 'next/link';
import { askForPortfolioLink } from '@/app/(site)/insurers/actions';
import { LinkRequestForm } from '@/components/portfolio/link-request-form';
import { portfolioRequestText } from '@/content/portfolio-request';
import { TrackLink } from '@/components/claims/track-link';
import { trackLinkText } from '@/content/claims';
import { PageIntro } from '@/components/ui/page-intro';
import { ActionBand } from '@/components/ui/action-band';
import { DescriptionList } from '@/components/ui/description-list';
import { NumberedSteps } from '@/components/ui/numbered-steps';
import { PageSection } from '@/components/ui/page-section';
import { Paragraphs } from '@/components/ui/paragraphs';
import { business } from '@/content/business';
import { CallButton, PhoneLink } from '@/components/ui/call-button';
import { insurersPage as text } from '@/content/insurers';
import { contactHref } from '@/lib/contact-prefill';
import { pageMetadata } from '@/lib/page-metadata';
import { EmailLink } from '@/components/ui/email-link';

export const metadata = pageMetadata('insurers');

export default function InsurersPage() {
  const standards = business.forInsurers;
  return (
    <>
      <PageIntro title={text.title} eyebrow={text.eyebrow}>
        <p>{text.intro}</p>
        <div className="mt-6 flex flex-wrap gap-4">
          <InstructionLinks />
        </div>
      </PageIntro>

      <PageSection id="instruct" title={text.instructHeading}>
        <NumberedSteps steps={text.instructSteps} />
        <p className="mt-8 text-slate-700">
          {text.instructionsEmailLabel}: <EmailLink address={standards.instructionsEmail} />
          {' · '}
          <PhoneLink phone={business.phone} />
        </p>
        <TrackLink lead={trackLinkText.insurers} className="mt-4 text-slate-700" />
      </PageSection>

      <PageSection id="instruction-form" title={text.formHeading}>
        <p className="mt-4 leading-relaxed text-slate-700">{text.formIntro}</p>
        <ul className="mt-4 list-disc space-y-2 pl-6 leading-relaxed text-slate-700">
          {text.formFields.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="mt-4 leading-relaxed text-slate-700">{text.formPhotos}</p>
      </PageSection>

      <PageSection id="your-claims" title={portfolioRequestText.heading}>
        <p className="mt-4 max-w-3xl leading-relaxed text-slate-700">{portfolioRequestText.intro}</p>
        <LinkRequestForm ask={askForPortfolioLink} />
      </PageSection>

      <PageSection id="receive" title={text.receiveHeading} layout="band">
        <DescriptionList items={text.receive} layout="cards" />
      </PageSection>

      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 lg:grid-cols-2">
        <PageSection id="standards" title={text.standardsHeading} layout="column" heading="medium">
          {standards.placeholder ? (
            <p className="mt-2 text-sm font-semibold text-slate-700" data-testid="standards-placeholder">
              {text.standardsPlaceholder}
            </p>
          ) : null}
          <DescriptionList items={standards.responseStandards} layout="rows" />
        </PageSection>
        <div className="space-y-12">
          <PageSection id="coverage" title={text.coverageHeading} layout="column" heading="medium">
            <p className="mt-4 leading-relaxed text-slate-700">{standards.coverage}</p>
          </PageSection>
          <PageSection id="reference" title={text.referenceHeading} layout="column" heading="medium">
            <Paragraphs paragraphs={text.reference} className="mt-4" />
          </PageSection>
        </div>
      </div>

      <ActionBand id="action" title={text.actionHeading} text={text.actionText}>
        <InstructionLinks />
        <CallButton phone={business.phone} variant="outline-light" />
      </ActionBand>
    </>
  );
}

/** The two ways to send an instruction: the form with the role already chosen. */
function InstructionLinks() {
  return (
    <>
      <Link href={contactHref({ claimRole: 'insurer' })} className="btn-accent">
        {text.insurerLabel}
      </Link>
      <Link href={contactHref({ claimRole: 'loss-adjuster' })} className="btn-outline-light">
        {text.lossAdjusterLabel}
      </Link>
    </>
  );
}
