import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { pages } from '@/content/pages';
import { pageMetadata } from '@/lib/page-metadata';

describe('pageMetadata', () => {
  it('gives the home page an absolute title and the others the layout template', () => {
    expect(pageMetadata('home').title).toEqual({ absolute: pages.home.title });
    expect(pageMetadata('about').title).toBe(pages.about.title);
  });

  it('sets description, keywords, canonical, robots, Open Graph and Twitter card from the page entry', () => {
    const metadata = pageMetadata('services');
    expect(metadata).toMatchObject({
      description: pages.services.description,
      keywords: [...pages.services.keywords],
      alternates: { canonical: '/services' },
      robots: { index: true, follow: true },
      openGraph: {
        type: 'website',
        siteName: business.name,
        title: pages.services.title,
        description: pages.services.description,
        url: '/services',
        images: [{ url: '/og/default.png', width: 1200, height: 630 }],
      },
      twitter: { card: 'summary_large_image' },
    });
  });
});
