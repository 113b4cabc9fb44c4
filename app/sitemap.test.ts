import { describe, expect, it } from 'vitest';
import robots from '@/app/robots';
import sitemap from '@/app/sitemap';
import { config } from '@/server/base/config.mjs';

describe('sitemap.xml and robots.txt', () => {
  it('lists the nine main routes (the claim look-up too), the page for insurers and the six service pages with absolute URLs from SITE_URL', () => {
    expect(
      sitemap()
        .map((entry) => entry.url)
        .sort(),
    ).toEqual(
      [
        '/',
        '/about',
        '/contact',
        '/gallery',
        '/health-safety',
        '/privacy',
        '/services',
        '/sitemap',
        '/track',
        '/insurers',
        '/services/water-damage',
        '/services/storm-weather',
        '/services/fire-smoke',
        '/services/vandalism-malicious',
        '/services/impact-accidental',
        '/services/claims-support',
      ]
        .map((path) => `${config().siteUrl}${path}`)
        .sort(),
    );
  });

  it('points robots.txt at the sitemap', () => {
    expect(robots().sitemap).toBe(`${config().siteUrl}/sitemap.xml`);
  });
});
