import { ContactForm } from '@/components/contact/contact-form';
import { PageIntro } from '@/components/ui/page-intro';
import { business, mailtoHref, telHref } from '@/content/business';
import { pageMetadata } from '@/lib/page-metadata';
import { PostalAddress } from '@/components/ui/postal-address';

export const metadata = pageMetadata('contact');

export default function ContactPage() {
  return (
    <>
      <PageIntro title="Contact Us" eyebrow="Get in touch">
        <p>Call us, e-mail us or send a message about an insurance repair or any work on your home.</p>
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-labelledby="details-heading">
          <h2 id="details-heading" className="text-2xl font-bold text-brand-900">
            Our details
          </h2>
          <dl className="mt-6 space-y-5">
            <div>
              <dt className="font-semibold text-brand-900">Address</dt>
              <dd>
                <PostalAddress className="text-slate-700" />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">Telephone</dt>
              <dd>
                <a href={telHref} className="prose-link">
                  {business.phone.display}
                </a>
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">E-mail</dt>
              <dd>
                <a href={mailtoHref} className="prose-link">
                  {business.email}
                </a>
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">Opening hours</dt>
              <dd className="text-slate-700">{business.openingHours.label}</dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">Service area</dt>
              <dd className="text-slate-700">{business.serviceAreaSummary}</dd>
            </div>
          </dl>
        </section>
        <section aria-labelledby="contact-form-heading" className="relative">
          <h2 id="contact-form-heading" className="text-2xl font-bold text-brand-900">
            Send us a message
          </h2>
          <div className="mt-6">
            <ContactForm />
          </div>
        </section>
      </div>
    </>
  );
}
