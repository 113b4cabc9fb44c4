import Link from 'next/link';
import { PageIntro } from '@/components/ui/page-intro';
import { TickList } from '@/components/ui/tick-list';
import { business } from '@/content/business';
import { CallButton } from '@/components/ui/call-button';
import { servicePageText, services, servicesPage } from '@/content/services';
import { PageSection } from '@/components/ui/page-section';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('services');

export default function ServicesPage() {
  return (
    <>
      <PageIntro title={servicesPage.title} eyebrow={servicesPage.eyebrow}>
        <p>{servicesPage.intro}</p>
      </PageIntro>

      <div className="mx-auto max-w-6xl px-4 py-16">
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li
              key={service.id}
              id={service.id}
              className="flex scroll-mt-36 flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm md:scroll-mt-52"
            >
              <h2 className="text-2xl font-bold text-brand-900">{service.title}</h2>
              <p className="mt-3 leading-relaxed text-slate-700">{service.summary}</p>
              <TickList items={service.includes} className="mt-4" />
              <p className="mt-auto pt-6">
                <Link href={service.page.path} className="prose-link font-semibold">
                  {servicePageText.moreAbout(service.title)}
                </Link>
              </p>
            </li>
          ))}
        </ul>

        <PageSection
          id="services-cta"
          title={servicesPage.cta.heading}
          layout="column"
          heading="medium"
          className="mt-16 rounded-xl bg-brand-50 p-8 text-center"
        >
          <p className="mx-auto mt-3 max-w-2xl leading-relaxed text-slate-700">{servicesPage.cta.text}</p>
          <div className="mt-6 flex flex-wrap justify-center gap-4">
            <Link href="/contact" className="btn-primary">
              {servicesPage.cta.contactLabel}
            </Link>
            <CallButton phone={business.phone} variant="secondary" />
          </div>
        </PageSection>
      </div>
    </>
  );
}
