import Link from 'next/link';
import { AccreditationGrid } from '@/components/about/accreditation-grid';
import { PageIntro } from '@/components/ui/page-intro';
import { PageSection } from '@/components/ui/page-section';
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
        <div className="mt-4 max-w-3xl space-y-4 text-lg leading-relaxed text-slate-700">
          {rest.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </PageSection>

      <PageSection id="claim" title={aboutPage.claimHeading} layout="band">
        <ol className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
          {claimSteps.map((step, index) => (
            <li key={step.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <span
                aria-hidden="true"
                className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-brand-800 text-lg font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 text-xl font-bold text-brand-900">{step.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
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
