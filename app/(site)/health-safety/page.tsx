import { ExternalLink } from '@/components/ui/external-link';
import { PageIntro } from '@/components/ui/page-intro';
import { PageSection } from '@/components/ui/page-section';
import { Paragraphs } from '@/components/ui/paragraphs';
import { healthSafetyIntro, healthSafetyPage, policyDocument, safetyCommitments } from '@/content/health-safety';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('healthSafety');

export default function HealthSafetyPage() {
  const [lead, ...rest] = healthSafetyIntro;
  return (
    <>
      <PageIntro title={healthSafetyPage.title} eyebrow={healthSafetyPage.eyebrow}>
        <p>{lead}</p>
      </PageIntro>
      <div className="mx-auto max-w-6xl px-4 py-16">
        <Paragraphs paragraphs={rest} lead className="max-w-3xl" />
        <p className="mt-8">
          <ExternalLink href={policyDocument.href} className="btn-primary">
            <svg
              aria-hidden="true"
              width="20"
              height="20"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              className="mr-2"
            >
              <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8l-5-5Zm0 0v5h5M9 13h6M9 17h6" />
            </svg>
            {policyDocument.label}
          </ExternalLink>
        </p>

        <PageSection id="commitments" title={healthSafetyPage.commitmentsHeading} layout="column" className="mt-16">
          <ul className="mt-8 grid gap-6 md:grid-cols-2">
            {safetyCommitments.map((commitment) => (
              <li key={commitment.title} className="rounded-xl border-l-4 border-accent-500 bg-slate-50 p-6">
                <h3 className="text-xl font-bold text-brand-900">{commitment.title}</h3>
                <p className="mt-2 leading-relaxed text-slate-700">{commitment.text}</p>
              </li>
            ))}
          </ul>
        </PageSection>
      </div>
    </>
  );
}
