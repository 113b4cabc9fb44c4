import { AccreditationGrid } from '@/components/about/accreditation-grid';
import { PageIntro } from '@/components/ui/page-intro';
import { aboutIntro, claimSteps } from '@/content/about';
import { accreditations } from '@/content/accreditations';
import { business } from '@/content/business';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('about');

export default function AboutPage() {
  const [lead, ...rest] = aboutIntro;
  return (
    <>
      <PageIntro title="About Us" eyebrow={`Over ${business.yearsExperience} years of insurance repairs`}>
        <p>{lead}</p>
      </PageIntro>

      <section aria-labelledby="who-heading" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="who-heading" className="text-3xl font-bold text-brand-900">
          Who we are
        </h2>
        <div className="mt-4 max-w-3xl space-y-4 text-lg leading-relaxed text-slate-700">
          {rest.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </section>

      <section aria-labelledby="claim-heading" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="claim-heading" className="text-3xl font-bold text-brand-900">
            How a claim works
          </h2>
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
        </div>
      </section>

      <section aria-labelledby="accreditations-heading" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="accreditations-heading" className="text-3xl font-bold text-brand-900">
          Our accreditations
        </h2>
        <p className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-700">
          Independent schemes check our work, our people and our safety record. Select a logo to read what each accreditation means for you.
        </p>
        <div className="mt-8">
          <AccreditationGrid accreditations={accreditations} />
        </div>
      </section>
    </>
  );
}
