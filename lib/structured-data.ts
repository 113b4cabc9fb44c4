import type { Business } from '@/content/business';
import type { Service } from '@/content/services/service';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';

// schema.org structured data for search engines. No ratings or reviews are published: Google's rules
// for review snippets exclude a business's reviews of itself.

const businessId = (origin: string) => `${origin}/#business`;
const serviceId = (origin: string, service: Service) => `${origin}${service.page.path}#service`;
const places = (business: Business) => business.areasServed.map((name) => ({ '@type': 'City', name }));

/**
 * The home page's business. GeneralContractor is the LocalBusiness subtype (via
 * HomeAndConstructionBusiness) that fits an insurance-repair building contractor; its offer catalogue
 * names the service pages, and `sameAs` its public profiles when there are any.
 */
export function localBusinessJsonLd(business: Business, siteUrl: string, imagePath: string, services: readonly Service[]) {
  const origin = trimTrailingSlashes(siteUrl);
  return {
    '@context': 'https://schema.org',
    '@type': 'GeneralContractor',
    '@id': businessId(origin),
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
    areaServed: places(business),
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Insurance repair services',
      itemListElement: services.map((service) => ({
        '@type': 'Offer',
        itemOffered: {
          '@type': 'Service',
          '@id': serviceId(origin, service),
          name: service.title,
          url: `${origin}${service.page.path}`,
        },
      })),
    },
    ...(business.profiles.length > 0 ? { sameAs: [...business.profiles] } : {}),
  };
}

/** A service page's Service, provided by the home page's business, and the page's breadcrumb trail. */
export function serviceJsonLd(business: Business, siteUrl: string, service: Service, servicesPageName: string) {
  const origin = trimTrailingSlashes(siteUrl);
  const url = `${origin}${service.page.path}`;
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Service',
        '@id': serviceId(origin, service),
        name: service.title,
        serviceType: service.serviceType,
        description: service.page.description,
        url,
        image: new URL(service.page.image.path, `${origin}/`).href,
        provider: {
          '@type': 'GeneralContractor',
          '@id': businessId(origin),
          name: business.name,
          url: `${origin}/`,
          telephone: business.phone.e164,
        },
        areaServed: places(business),
      },
      breadcrumbJsonLd([
        { name: 'Home', url: `${origin}/` },
        { name: servicesPageName, url: `${origin}/services` },
        { name: service.title, url },
      ]),
    ],
  };
}

function breadcrumbJsonLd(trail: readonly { name: string; url: string }[]) {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, index) => ({ '@type': 'ListItem', position: index + 1, name: crumb.name, item: crumb.url })),
  };
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no value can close the script element. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
