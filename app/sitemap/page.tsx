import { LinkList } from '@/components/ui/link-list';
import { PostalAddress } from '@/components/ui/postal-address';
import { PageIntro } from '@/components/ui/page-intro';
import { business, mailtoHref, telHref } from '@/content/business';
import { sitemapLinks } from '@/content/navigation';
import { serviceGroups } from '@/content/services';
import { pageMetadata } from '@/lib/page-metadata';

export const metadata = pageMetadata('sitemap');

export default function SitemapPage() {
  return (
    <>
      <PageIntro title="Site Map">
        <p>Every page of our website, the work we carry out and how to reach us.</p>
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 md:grid-cols-3">
        <section aria-labelledby="pages-heading">
          <h2 id="pages-heading" className="text-2xl font-bold text-brand-900">
            Pages
          </h2>
          <LinkList links={sitemapLinks} className="mt-4 space-y-2" linkClassName="prose-link" />
        </section>

        <section aria-labelledby="services-heading">
          <h2 id="services-heading" className="text-2xl font-bold text-brand-900">
            Services
          </h2>
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
        </section>

        <section aria-labelledby="contact-heading">
          <h2 id="contact-heading" className="text-2xl font-bold text-brand-900">
            Contact details
          </h2>
          <p className="mt-4 font-semibold text-brand-900">{business.legalName}</p>
          <PostalAddress className="mt-2 text-slate-700" />
          <p className="mt-3">
            Telephone:{' '}
            <a href={telHref} className="prose-link">
              {business.phone.display}
            </a>
          </p>
          <p className="mt-1">
            E-mail:{' '}
            <a href={mailtoHref} className="prose-link">
              {business.email}
            </a>
          </p>
          <p className="mt-3 text-slate-700">{business.openingHours.label}</p>
        </section>
      </div>
    </>
  );
}
