import { PageIntro } from '@/components/ui/page-intro';
import { Paragraphs } from '@/components/ui/paragraphs';
import { privacyPage, privacySections, privacyUpdated } from '@/content/privacy';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('privacy');

export default function PrivacyPage() {
  return (
    <>
      <PageIntro title={privacyPage.title}>
        <p>
          {privacyPage.intro} {privacyUpdated}.
        </p>
      </PageIntro>
      <div className="mx-auto max-w-6xl px-4 py-16 lg:grid lg:grid-cols-[16rem_1fr] lg:gap-12">
        <nav aria-label={privacyPage.contentsLabel} className="mb-10 lg:mb-0">
          <ul className="space-y-2 lg:sticky lg:top-52">
            {privacySections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="prose-link">
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="max-w-3xl space-y-12">
          {privacySections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-36 md:scroll-mt-52">
              <h2 id={`${section.id}-heading`} className="text-2xl font-bold text-brand-900">
                {section.title}
              </h2>
              <Paragraphs paragraphs={section.paragraphs} className="mt-4">
                {section.list ? (
                  <ul className="list-disc space-y-2 pl-6">
                    {section.list.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                ) : null}
              </Paragraphs>
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
