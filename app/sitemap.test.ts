import { describe, expect, it } from 'vitest';
import robots from '@/app/robots';
import sitemap from '@/app/sitemap';
import { serverEnv } from '@/server/env';

describe('sitemap.xml and robots.txt', () => {
  it('lists the eight routes with absolute URLs from SITE_URL', () => {
    expect(
      sitemap()
        .map((entry) => entry.url)
        .sort(),
    ).toEqual(
      ['/', '/about', '/contact', '/gallery', '/health-safety', '/privacy', '/services', '/sitemap']
        .map((path) => `${serverEnv.SITE_URL}${path}`)
        .sort(),
    );
  });

  it('points robots.txt at the sitemap', () => {
    expect(robots().sitemap).toBe(`${serverEnv.SITE_URL}/sitemap.xml`);
  });
});
