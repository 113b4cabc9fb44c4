// Reads each route's server-rendered HTML with plain fetch (no JavaScript runs), as a crawler or a
// social-card scraper would, and checks the search and sharing metadata.
import { expect, test } from './support/test';
import { business } from '@/content/business';
import { defaultSocialImage, sitePages } from '@/content/pages';
import { services } from '@/content/services';
import { testBuildEnv, testSiteUrl } from './test-env';
import { readHtml } from './support/raw-html';
import { indexedRoutes as routes, offlineRoutes } from '../../scripts/support/routes';

const siteUrl = testBuildEnv.SITE_URL!;

async function rawDocument(path: string) {
  const response = await fetch(`${testSiteUrl}${path}`);
  expect(response.status).toBe(200);
  return readHtml(await response.text());
}

test('every route publishes its title, description, keywords, canonical, robots, Open Graph and Twitter card', async () => {
  const titles: string[] = [];
  const descriptions: string[] = [];
  for (const route of routes) {
    const document = await rawDocument(route.path);
    const entry = sitePages.find((page) => page.path === route.path)!;
    const image = entry.image ?? defaultSocialImage;
    const url = `${siteUrl}${route.path === '/' ? '' : route.path}`;
    const title = document.title;
    const description = document.meta('description');

    expect(title, route.path).toBe(route.path === '/' ? entry.title : `${entry.title} | ${business.name}`);
    expect(description).toBe(entry.description);
    expect(document.meta('keywords')).toBe(entry.keywords.join(','));
    expect(document.link('canonical')).toBe(url);
    expect(document.meta('robots')).toBe('index, follow');

    expect(document.meta('og:type')).toBe('website');
    expect(document.meta('og:title')).toBe(entry.title);
    expect(document.meta('og:description')).toBe(entry.description);
    expect(document.meta('og:url')).toBe(url);
    expect(document.meta('og:site_name')).toBe(business.name);
    expect(document.meta('og:image')).toBe(`${siteUrl}${image.path}`);
    expect(document.meta('og:image:width')).toBe('1200');
    expect(document.meta('og:image:height')).toBe('630');
    expect(document.meta('og:image:alt')).toMatch(/insurance repairs/);
    expect(document.meta('twitter:card')).toBe('summary_large_image');
    expect(document.meta('twitter:image')).toBe(`${siteUrl}${image.path}`);

    expect(document.link('icon')).toMatch(/^\/icon\.svg/);
    expect(document.link('apple-touch-icon')).toMatch(/^\/apple-icon\.png/);
    expect(document.link('manifest')).toBe('/manifest.webmanifest');
    expect(document.lang).toBe('en-GB');
    // The page's own heading and copy are in the HTML, not added by JavaScript.
    expect(document.h1).toBe(route.h1);

    titles.push(title);
    descriptions.push(description!);
  }
  expect(new Set(titles).size).toBe(routes.length);
  expect(new Set(descriptions).size).toBe(routes.length);
});

test('the home page publishes LocalBusiness JSON-LD with every LocalBusiness field', async () => {
  const document = await rawDocument('/');
  expect(document.jsonLd).toHaveLength(1);
  const data = document.jsonLd[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-LD read field by field
  expect(data['@context']).toBe('https://schema.org');
  expect(data['@type']).toBe('GeneralContractor');
  expect(data.name).toBe(business.name);
  expect(data.description).toBe(business.description);
  expect(data.telephone).toBe(business.phone.e164);
  expect(data.email).toBe(business.email);
  expect(data.url).toBe(`${siteUrl}/`);
  expect(data.address).toEqual({
    '@type': 'PostalAddress',
    streetAddress: business.address.street,
    addressLocality: 'Cumbernauld',
    addressRegion: business.address.region,
    postalCode: business.address.postcode,
    addressCountry: 'GB',
  });
  expect(data.geo).toEqual({ '@type': 'GeoCoordinates', latitude: business.geo.latitude, longitude: business.geo.longitude });
  expect(data.openingHoursSpecification).toEqual([
    {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '08:00',
      closes: '17:00',
    },
  ]);
  expect(data.priceRange).toBe(business.priceRange);
  expect(data.areaServed.map((area: { name: string }) => area.name)).toEqual([...business.areasServed]);

  expect(data.hasOfferCatalog.itemListElement.map((offer: { itemOffered: { url: string } }) => offer.itemOffered.url)).toEqual(
    services.map((service) => `${siteUrl}${service.page.path}`),
  );
  // No profiles are set yet, so no sameAs; and no self-made review stars.
  expect(data).not.toHaveProperty('sameAs');
  expect(JSON.stringify(data)).not.toMatch(/aggregateRating|"review/);

  for (const route of routes.filter((r) => r.path !== '/' && !r.path.startsWith('/services/'))) {
    const other = await rawDocument(route.path);
    expect(other.jsonLd, route.path).toHaveLength(0);
  }
});

test('each service page publishes its Service, provided by the business, and its breadcrumb trail', async () => {
  for (const service of services) {
    const document = await rawDocument(service.page.path);
    expect(document.jsonLd, service.id).toHaveLength(1);
    const [described, breadcrumb] = (document.jsonLd[0] as { '@graph': Record<string, any>[] })['@graph']; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-LD read field by field
    expect(described).toMatchObject({
      '@type': 'Service',
      name: service.title,
      serviceType: service.serviceType,
      url: `${siteUrl}${service.page.path}`,
      provider: { '@type': 'GeneralContractor', '@id': `${siteUrl}/#business`, name: business.name },
    });
    expect(described!.areaServed.map((area: { name: string }) => area.name)).toEqual([...business.areasServed]);
    expect(breadcrumb!.itemListElement.map((crumb: { name: string; item: string }) => [crumb.name, crumb.item])).toEqual([
      ['Home', `${siteUrl}/`],
      ['Services', `${siteUrl}/services`],
      [service.title, `${siteUrl}${service.page.path}`],
    ]);
  }
});

test('the offline page has its own title and description, and is kept out of search results', async () => {
  const [offline] = offlineRoutes;
  const document = await rawDocument(offline.path);
  expect(document.title).toBe(`You’re offline | ${business.name}`);
  expect(document.meta('description')).toBe('This page is not kept on your phone, but the claim form is: it works with no signal.');
  expect(document.link('canonical')).toBe(`${siteUrl}/offline`);
  expect(document.meta('robots')).toBe('noindex, nofollow');
  expect(document.h1).toBe(offline.h1);
});

test('sitemap.xml lists every page with absolute URLs and robots.txt points at it', async () => {
  const sitemap = await (await fetch(`${testSiteUrl}/sitemap.xml`)).text();
  const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
  expect(locations.sort()).toEqual(routes.map((route) => `${siteUrl}${route.path === '/' ? '/' : route.path}`).sort());
  const robots = await fetch(`${testSiteUrl}/robots.txt`);
  expect(robots.status).toBe(200);
  const text = await robots.text();
  expect(text).toContain('Allow: /');
  expect(text).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
});

test('the web manifest, icons and the 1200x630 social image are served', async () => {
  const manifest = (await (await fetch(`${testSiteUrl}/manifest.webmanifest`)).json()) as { name: string; icons: { src: string }[] };
  expect(manifest.name).toBe(business.legalName);
  for (const icon of manifest.icons) {
    expect((await fetch(`${testSiteUrl}${icon.src}`)).status, icon.src).toBe(200);
  }
  for (const path of ['/icon.svg', '/apple-icon.png']) {
    expect((await fetch(`${testSiteUrl}${path}`)).status, path).toBe(200);
  }
  const og = Buffer.from(await (await fetch(`${testSiteUrl}/og/default.png`)).arrayBuffer());
  // PNG IHDR: width and height are big-endian 32-bit integers at bytes 16 and 20.
  expect([og.readUInt32BE(16), og.readUInt32BE(20)]).toEqual([1200, 630]);
});
