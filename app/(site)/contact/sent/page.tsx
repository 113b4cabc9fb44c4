import type { Metadata } from 'next';
import Link from 'next/link';
import { TrackLink } from '@/components/claims/track-link';
import { PageIntro } from '@/components/ui/page-intro';
import { trackLinkText } from '@/content/claims';
import { business } from '@/content/business';
import { CallButton, PhoneLink } from '@/components/ui/call-button';
import { CONTACT_OUTCOME_MESSAGES, referenceText, sentPage, urgentCallText } from '@/content/contact';
import { isEnquiryReference } from '@/lib/enquiry-reference';

export const metadata: Metadata = {
  title: sentPage.title,
  description: sentPage.description,
  robots: { index: false, follow: false },
};

/**
 * Where the contact form lands when the browser posted it without JavaScript (a 303 after the enquiry
 * was stored). Rendered per request, since it shows the enquiry's reference; it carries nothing the
 * visitor typed.
 */
export default async function SentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reference, urgent } = await searchParams;
  const shown = typeof reference === 'string' && isEnquiryReference(reference) ? reference : null;
  return (
    <>
      <PageIntro title={sentPage.title} eyebrow="Contact">
        <p role="status" className="font-semibold">
          {CONTACT_OUTCOME_MESSAGES.success}
        </p>
      </PageIntro>
      <div className="mx-auto max-w-3xl space-y-4 px-4 py-12 text-lg text-slate-700">
        {shown ? (
          <p data-testid="enquiry-reference">
            {referenceText.before} <strong className="font-mono text-xl tracking-wider text-brand-900">{shown}</strong>.{' '}
            {referenceText.after}
          </p>
        ) : null}
        {shown ? <TrackLink lead={trackLinkText.sent} reference={shown} className="" /> : null}
        <p>{sentPage.next}</p>
        {urgent === '1' ? (
          <div className="rounded-md border border-red-700 bg-red-50 p-4 text-red-950" data-testid="urgent-call">
            <p>{sentPage.urgentSent}</p>
            <p className="mt-3">
              <CallButton phone={business.emergencyPhone} variant="primary" label={urgentCallText.link} />
            </p>
          </div>
        ) : (
          <p>
            {sentPage.urgent} <PhoneLink phone={business.phone} />.
          </p>
        )}
        <p>
          <Link href="/" className="prose-link">
            {sentPage.back}
          </Link>
        </p>
      </div>
    </>
  );
}
