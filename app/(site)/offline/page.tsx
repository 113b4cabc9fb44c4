import type { Metadata } from 'next';
import { PageIntro } from '@/components/ui/page-intro';
import { PhoneLink } from '@/components/ui/call-button';
import { business } from '@/content/business';
import { offlinePage } from '@/content/offline';

export const metadata: Metadata = {
  title: offlinePage.title,
  description: offlinePage.description,
  alternates: { canonical: '/offline' },
  robots: { index: false, follow: false },
};

/**
 * What the service worker (lib/offline/service-worker.ts) shows for a page it cannot reach and does not
 * keep. Plain HTML with links: it works before and without its JavaScript.
 */
export default function OfflinePage() {
  return (
    <>
      <PageIntro title={offlinePage.heading} eyebrow="No signal">
        <p>{offlinePage.text}</p>
      </PageIntro>
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-12 text-lg text-slate-700">
        <p>
          {/* A full navigation: this page may stand in for any address, which the router must not take for its own. */}
          <a href="/contact#contact-form" className="btn-primary">
            {offlinePage.formLink}
          </a>
        </p>
        <p>
          {offlinePage.call} <PhoneLink phone={business.phone} />.
        </p>
      </div>
    </>
  );
}
