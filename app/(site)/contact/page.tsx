import { sendEnquiryWithoutScript } from '@/app/(site)/contact/actions';
import { TrackLink } from '@/components/claims/track-link';
import { trackLinkText } from '@/content/claims';
import { ContactForm } from '@/components/contact/contact-form';
import { PageIntro } from '@/components/ui/page-intro';
import { business } from '@/content/business';
import { PhoneLink } from '@/components/ui/call-button';
import { PageSection } from '@/components/ui/page-section';
import { contactPage } from '@/content/contact';
import { pageMetadata } from '@/lib/page-metadata';
import { PostalAddress } from '@/components/ui/postal-address';
import { EmailLink } from '@/components/ui/email-link';

export const metadata = pageMetadata('contact');

export default function ContactPage() {
  return (
    <>
      <PageIntro title={contactPage.title} eyebrow={contactPage.eyebrow}>
        <p>{contactPage.intro}</p>
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <PageSection id="details" title={contactPage.detailsHeading} layout="column" heading="medium">
          <dl className="mt-6 space-y-5">
            <div>
              <dt className="font-semibold text-brand-900">{contactPage.details.address}</dt>
              <dd>
                <PostalAddress className="text-slate-700" />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">{contactPage.details.telephone}</dt>
              <dd>
                <PhoneLink phone={business.phone} />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">{contactPage.details.email}</dt>
              <dd>
                <EmailLink address={business.email} />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">{contactPage.details.openingHours}</dt>
              <dd className="text-slate-700">{business.openingHours.label}</dd>
            </div>
            <div>
              <dt className="font-semibold text-brand-900">{contactPage.details.serviceArea}</dt>
              <dd className="text-slate-700">{business.serviceAreaSummary}</dd>
            </div>
          </dl>
          <TrackLink lead={trackLinkText.contact} />
        </PageSection>
        <PageSection id="contact-form" title={contactPage.formHeading} layout="column" heading="medium" className="relative">
          <div className="mt-6">
            <ContactForm sendWithoutScript={sendEnquiryWithoutScript} emergencyPhone={business.emergencyPhone} />
          </div>
        </PageSection>
      </div>
    </>
  );
}
