import type { MetadataRoute } from 'next';
import { pages } from '@/content/pages';
import { serverEnv } from '@/server/env';

export default function sitemap(): MetadataRoute.Sitemap {
  return Object.values(pages).map((page) => ({
    url: `${serverEnv.SITE_URL}${page.path === '/' ? '/' : page.path}`,
    changeFrequency: page.path === '/gallery' ? 'weekly' : 'monthly',
    priority: page.path === '/' ? 1 : 0.7,
  }));
}
