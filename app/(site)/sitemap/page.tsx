import { LinkList } from '@/components/ui/link-list';
import { PostalAddress } from '@/components/ui/postal-address';
import { PageIntro } from '@/components/ui/page-intro';
import { business } from '@/content/business';
import { PhoneLink } from '@/components/ui/call-button';
import { PageSection } from '@/components/ui/page-section';
import { sitemapLinks, sitemapPage } from '@/content/navigation';
import { serviceGroups, services } from '@/content/services';
import { pageMetadata } from '@/lib/page-metadata';
import { EmailLink } from '@/components/ui/email-link';

export const metadata = pageMetadata('sitemap');

export default function SitemapPage() {
  return (
    <>
      <PageIntro title={sitemapPage.title}>
        <p>{sitemapPage.intro}</p>
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 md:grid-cols-3">
        <PageSection id="pages" title={sitemapPage.pagesHeading} layout="column" heading="medium">
          <LinkList links={sitemapLinks} className="mt-4 space-y-2" linkClassName="prose-link" />
        </PageSection>

        <PageSection id="services" title={sitemapPage.servicesHeading} layout="column" heading="medium">
          <h3 className="mt-4 text-lg font-semibold text-brand-900">{sitemapPage.servicePagesHeading}</h3>
          <LinkList
            links={services.map((service) => ({ href: service.page.path, label: service.title }))}
            className="mt-2 space-y-1"
            linkClassName="prose-link"
          />
          {serviceGroups.map((group) => (
            <div key={group.id} className="mt-4">
              <h3 className="text-lg font-semibold text-brand-900">{group.title}</h3>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
                {group.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </div>
          ))}
        </PageSection>

        <PageSection id="contact" title={sitemapPage.contactHeading} layout="column" heading="medium">
          <p className="mt-4 font-semibold text-brand-900">{business.legalName}</p>
          <PostalAddress className="mt-2 text-slate-700" />
          <p className="mt-3">
            {sitemapPage.telephoneLabel}: <PhoneLink phone={business.phone} />
          </p>
          <p className="mt-1">
            {sitemapPage.emailLabel}: <EmailLink address={business.email} />
          </p>
          <p className="mt-3 text-slate-700">{business.openingHours.label}</p>
        </PageSection>
      </div>
    </>
  );
}
