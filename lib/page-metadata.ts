import type { Metadata } from 'next';
import { business } from '@/content/business';
import { defaultSocialImage, pages, type PageKey, type PageMeta } from '@/content/pages';

/** The full metadata of one page, built from its typed entry in content/pages.ts. */
export function pageMetadata(key: PageKey): Metadata {
  return metadataOf(pages[key], { absoluteTitle: key === 'home' });
}

/** The full metadata of a page's typed entry; `absoluteTitle` leaves out the layout's " | name" suffix. */
export function metadataOf(page: PageMeta, { absoluteTitle = false } = {}): Metadata {
  const image = page.image ?? defaultSocialImage;
  return {
    title: absoluteTitle ? { absolute: page.title } : page.title,
    description: page.description,
    keywords: [...page.keywords],
    alternates: { canonical: page.path },
    robots: { index: true, follow: true },
    openGraph: {
      type: 'website',
      siteName: business.name,
      locale: 'en_GB',
      title: page.title,
      description: page.description,
      url: page.path,
      images: [{ url: image.path, width: image.width, height: image.height, alt: image.alt }],
    },
    twitter: {
      card: 'summary_large_image',
      title: page.title,
      description: page.description,
      images: [{ url: image.path, alt: image.alt }],
    },
  };
}
