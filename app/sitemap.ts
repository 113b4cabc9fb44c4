import type { MetadataRoute } from 'next';
import { sitePages } from '@/content/pages';
import { config } from '@/server/base/config.mjs';

export default function sitemap(): MetadataRoute.Sitemap {
  return sitePages.map((page) => ({
    url: `${config().siteUrl}${page.path === '/' ? '/' : page.path}`,
    changeFrequency: page.path === '/gallery' ? 'weekly' : 'monthly',
    priority: page.path === '/' ? 1 : 0.7,
  }));
}
