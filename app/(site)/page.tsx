import Link from 'next/link';
import { business } from '@/content/business';
import { CallButton } from '@/components/ui/call-button';
import { ActionBand } from '@/components/ui/action-band';
import { commitment, homePage } from '@/content/home';
import { defaultSocialImage } from '@/content/pages';
import { services } from '@/content/services';
import { localBusinessJsonLd, serializeJsonLd } from '@/lib/structured-data';
import { pageMetadata } from '@/lib/page-metadata';
import { config } from '@/server/base/config.mjs';
import { HomeHero, HomeHighlights, HomeServices, HomeTestimonials } from '@/app/(site)/_components/home-sections';

export const metadata = pageMetadata('home');

export default function HomePage() {
  const jsonLd = localBusinessJsonLd(business, config().siteUrl, defaultSocialImage.path, services);

  return (
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(jsonLd) }} />

      <HomeHero />

      <HomeHighlights />

      <HomeServices />

      <HomeTestimonials />

      <ActionBand id="commitment" title={commitment.title} text={commitment.text}>
        <Link href="/contact" className="btn-accent">
          {homePage.enquiryLabel}
        </Link>
        <CallButton phone={business.phone} variant="outline-light" />
      </ActionBand>
    </>
  );
}
