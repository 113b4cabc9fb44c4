import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { services } from '@/content/services';
import { localBusinessJsonLd, serializeJsonLd, serviceJsonLd } from '@/lib/structured-data';

const data = localBusinessJsonLd(business, 'https://www.example.com/', '/og/default.png', services);

describe('localBusinessJsonLd', () => {
  it('is a schema.org LocalBusiness subtype for a building contractor', () => {
    expect(data['@context']).toBe('https://schema.org');
    expect(data['@type']).toBe('GeneralContractor');
  });

  it('carries every LocalBusiness field, from content/business.ts', () => {
    expect(data).toMatchObject({
      name: business.name,
      description: business.description,
      telephone: business.phone.e164,
      email: business.email,
      priceRange: business.priceRange,
      url: 'https://www.example.com/',
      image: 'https://www.example.com/og/default.png',
    });
    expect(data.address).toEqual({
      '@type': 'PostalAddress',
      streetAddress: business.address.street,
      addressLocality: 'Cumbernauld',
      addressRegion: business.address.region,
      postalCode: business.address.postcode,
      addressCountry: 'GB',
    });
    expect(data.geo).toEqual({ '@type': 'GeoCoordinates', latitude: business.geo.latitude, longitude: business.geo.longitude });
    expect(data.areaServed.map((area) => area.name)).toEqual([...business.areasServed]);
  });

  it('opens Monday to Friday 08:00-17:00', () => {
    expect(data.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '08:00',
        closes: '17:00',
      },
    ]);
  });
});

describe('the offer catalogue and profiles', () => {
  it('lists each service page as an offered Service with its URL', () => {
    expect(data.hasOfferCatalog['@type']).toBe('OfferCatalog');
    expect(data.hasOfferCatalog.itemListElement.map((offer) => offer.itemOffered.url)).toEqual([
      'https://www.example.com/services/water-damage',
      'https://www.example.com/services/storm-weather',
      'https://www.example.com/services/fire-smoke',
      'https://www.example.com/services/vandalism-malicious',
      'https://www.example.com/services/impact-accidental',
      'https://www.example.com/services/claims-support',
    ]);
    expect(data.hasOfferCatalog.itemListElement[0]).toEqual({
      '@type': 'Offer',
      itemOffered: {
        '@type': 'Service',
        '@id': 'https://www.example.com/services/water-damage#service',
        name: 'Water Damage Restoration',
        url: 'https://www.example.com/services/water-damage',
      },
    });
  });

  it('leaves sameAs out while there are no profiles, and lists them once there are', () => {
    expect(business.profiles).toEqual([]);
    expect(data).not.toHaveProperty('sameAs');
    const withProfiles = localBusinessJsonLd(
      { ...business, profiles: ['https://www.facebook.com/example'] },
      'https://www.example.com',
      '/og/default.png',
      services,
    );
    expect(withProfiles.sameAs).toEqual(['https://www.facebook.com/example']);
  });

  it('publishes no ratings or reviews of its own', () => {
    expect(JSON.stringify(data)).not.toMatch(/aggregateRating|"review/);
  });
});

describe('serviceJsonLd', () => {
  const storm = services.find((service) => service.id === 'storm-weather')!;
  const [service, breadcrumb] = serviceJsonLd(business, 'https://www.example.com', storm, 'Services')['@graph'];

  it('describes the service, provided by the business of the home page, across the service area', () => {
    expect(service).toMatchObject({
      '@type': 'Service',
      '@id': 'https://www.example.com/services/storm-weather#service',
      name: 'Storm & Weather Damage',
      serviceType: 'Storm damage repair',
      url: 'https://www.example.com/services/storm-weather',
      provider: { '@type': 'GeneralContractor', '@id': 'https://www.example.com/#business', name: business.name },
      areaServed: business.areasServed.map((name) => ({ '@type': 'City', name })),
    });
  });

  it('gives the trail Home, Services, the service', () => {
    expect(breadcrumb).toEqual({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://www.example.com/' },
        { '@type': 'ListItem', position: 2, name: 'Services', item: 'https://www.example.com/services' },
        { '@type': 'ListItem', position: 3, name: 'Storm & Weather Damage', item: 'https://www.example.com/services/storm-weather' },
      ],
    });
  });
});

describe('serializeJsonLd', () => {
  it('escapes < so a value cannot end the script element', () => {
    const json = serializeJsonLd({ text: '</script><script>alert(1)</script>' });
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json)).toEqual({ text: '</script><script>alert(1)</script>' });
  });
});
