import { describe, expect, it } from 'vitest';
import robots from '@/app/robots';
import sitemap from '@/app/sitemap';
import { config } from '@/server/config.mjs';

describe('sitemap.xml and robots.txt', () => {
  it('lists the eight routes with absolute URLs from SITE_URL', () => {
    expect(
      sitemap()
        .map((entry) => entry.url)
        .sort(),
    ).toEqual(
      ['/', '/about', '/contact', '/gallery', '/health-safety', '/privacy', '/services', '/sitemap']
        .map((path) => `${config().siteUrl}${path}`)
        .sort(),
    );
  });

  it('points robots.txt at the sitemap', () => {
    expect(robots().sitemap).toBe(`${config().siteUrl}/sitemap.xml`);
  });
});
