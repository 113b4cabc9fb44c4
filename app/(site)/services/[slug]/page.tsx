import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Metadata } from 'next';
import { PageIntro } from '@/components/ui/page-intro';
import { ActionBand } from '@/components/ui/action-band';
import { NumberedSteps } from '@/components/ui/numbered-steps';
import { PageSection } from '@/components/ui/page-section';
import { Paragraphs } from '@/components/ui/paragraphs';
import { TickList } from '@/components/ui/tick-list';
import { business } from '@/content/business';
import { CallButton } from '@/components/ui/call-button';
import { serviceById, servicePageText, services } from '@/content/services';
import { contactHref } from '@/lib/contact-prefill';
import { metadataOf } from '@/lib/page-metadata';
import { serializeJsonLd, serviceJsonLd } from '@/lib/structured-data';
import { config } from '@/server/base/config.mjs';

type Props = { params: Promise<{ slug: string }> };

export const dynamicParams = false;

export function generateStaticParams() {
  return services.map((service) => ({ slug: service.id }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const service = serviceById((await params).slug);
  return service ? metadataOf(service.page) : {};
}

export default async function ServicePage({ params }: Props) {
  const service = serviceById((await params).slug);
  if (!service) notFound();
  const text = servicePageText;
  const jsonLd = serviceJsonLd(business, config().siteUrl, service, text.services);

  return (
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(jsonLd) }} />
      <nav aria-label={text.breadcrumb} className="border-b border-slate-200 bg-white">
        <ol className="mx-auto flex max-w-6xl flex-wrap gap-2 px-4 py-3 text-sm text-slate-700">
          <li>
            <Link href="/" className="prose-link">
              {text.home}
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li>
            <Link href="/services" className="prose-link">
              {text.services}
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li aria-current="page">{service.title}</li>
        </ol>
      </nav>

      <PageIntro title={service.title} eyebrow={text.eyebrow}>
        <p>{service.summary}</p>
        <div className="mt-6 flex flex-wrap gap-4">
          <Link href={contactHref({ damageType: service.damageType })} className="btn-accent">
            {text.enquiryLabel}
          </Link>
          <CallButton phone={business.phone} variant="outline-light" />
        </div>
      </PageIntro>

      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PageSection id="covers" title={text.coversHeading} layout="column" heading="medium">
          <Paragraphs paragraphs={service.covers} className="mt-4" />
        </PageSection>
        <PageSection id="includes" title={text.includesHeading} layout="column" heading="medium">
          <TickList items={service.includes} className="mt-4" />
        </PageSection>
      </div>

      <PageSection id="steps" title={text.stepsHeading} layout="band">
        <NumberedSteps steps={service.steps} />
      </PageSection>

      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 lg:grid-cols-2">
        <PageSection id="first-hours" title={text.firstHoursHeading} layout="column" heading="medium">
          <p className="mt-2 text-sm text-slate-700">{text.firstHoursNote}</p>
          <ul className="mt-4 list-disc space-y-2 pl-5 leading-relaxed text-slate-700">
            {service.firstHours.map((advice) => (
              <li key={advice}>{advice}</li>
            ))}
          </ul>
        </PageSection>
        <PageSection id="insurance" title={text.insuranceHeading} layout="column" heading="medium">
          <Paragraphs paragraphs={service.insurance} className="mt-4" />
          <h3 className="mt-8 text-xl font-bold text-brand-900">{text.areaHeading}</h3>
          <p className="mt-2 leading-relaxed text-slate-700">{business.serviceAreaSummary}</p>
        </PageSection>
      </div>

      <ActionBand id="action" title={text.actionHeading} text={text.actionText}>
        <CallButton phone={business.phone} variant="accent" />
        <Link href={contactHref({ damageType: service.damageType })} className="btn-outline-light">
          {text.enquiryLabel}
        </Link>
        <Link href="/services" className="btn-outline-light">
          {text.allServices}
        </Link>
      </ActionBand>
    </>
  );
}
