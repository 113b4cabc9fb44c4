import Link from 'next/link';
import { AccreditationGrid } from '@/components/about/accreditation-grid';
import { PageIntro } from '@/components/ui/page-intro';
import { NumberedSteps } from '@/components/ui/numbered-steps';
import { PageSection } from '@/components/ui/page-section';
import { Paragraphs } from '@/components/ui/paragraphs';
import { aboutIntro, aboutPage, claimSteps } from '@/content/about';
import { accreditations } from '@/content/accreditations';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('about');

export default function AboutPage() {
  const [lead, ...rest] = aboutIntro;
  return (
    <>
      <PageIntro title={aboutPage.title} eyebrow={aboutPage.eyebrow}>
        <p>{lead}</p>
      </PageIntro>

      <PageSection id="who" title={aboutPage.whoHeading}>
        <Paragraphs paragraphs={rest} lead className="mt-4 max-w-3xl" />
      </PageSection>

      <PageSection id="claim" title={aboutPage.claimHeading} layout="band">
        <NumberedSteps steps={claimSteps} />
        <p className="mt-8 text-slate-700">
          {aboutPage.insurersLink.before}{' '}
          <Link href="/insurers" className="prose-link font-semibold">
            {aboutPage.insurersLink.label}
          </Link>
        </p>
      </PageSection>

      <PageSection id="accreditations" title={aboutPage.accreditationsHeading}>
        <p className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-700">{aboutPage.accreditationsIntro}</p>
        <div className="mt-8">
          <AccreditationGrid accreditations={accreditations} />
        </div>
      </PageSection>
    </>
  );
}
