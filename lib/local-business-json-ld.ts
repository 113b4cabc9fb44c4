import type { Business } from '@/content/business';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';

/**
 * schema.org structured data for the home page. GeneralContractor is the LocalBusiness subtype
 * (via HomeAndConstructionBusiness) that fits an insurance-repair building contractor.
 */
export function localBusinessJsonLd(business: Business, siteUrl: string, imagePath: string) {
  const origin = trimTrailingSlashes(siteUrl);
  return {
    '@context': 'https://schema.org',
    '@type': 'GeneralContractor',
    '@id': `${origin}/#business`,
    name: business.name,
    legalName: business.legalName,
    description: business.description,
    url: `${origin}/`,
    image: new URL(imagePath, `${origin}/`).href,
    telephone: business.phone.e164,
    email: business.email,
    address: {
      '@type': 'PostalAddress',
      streetAddress: business.address.street,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postcode,
      addressCountry: business.address.country,
    },
    geo: {
      '@type': 'GeoCoordinates',
      latitude: business.geo.latitude,
      longitude: business.geo.longitude,
    },
    openingHoursSpecification: [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: [...business.openingHours.days],
        opens: business.openingHours.opens,
        closes: business.openingHours.closes,
      },
    ],
    priceRange: business.priceRange,
    areaServed: business.areasServed.map((name) => ({ '@type': 'City', name })),
  };
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no value can close the script element. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
