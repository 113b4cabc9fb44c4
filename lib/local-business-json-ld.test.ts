import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { localBusinessJsonLd, serializeJsonLd } from '@/lib/local-business-json-ld';

describe('localBusinessJsonLd', () => {
  const data = localBusinessJsonLd(business, 'https://www.example.com/', '/og/default.png');

  it('is a schema.org LocalBusiness subtype for a building contractor', () => {
    expect(data['@context']).toBe('https://schema.org');
    expect(data['@type']).toBe('GeneralContractor');
  });

  it('carries every field the spec lists, from content/business.ts', () => {
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

describe('serializeJsonLd', () => {
  it('escapes < so a value cannot end the script element', () => {
    const json = serializeJsonLd({ text: '</script><script>alert(1)</script>' });
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json)).toEqual({ text: '</script><script>alert(1)</script>' });
  });
});
