import type { MetadataRoute } from 'next';
import { config } from '@/server/base/config.mjs';

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: '/api/' }],
    sitemap: `${config().siteUrl}/sitemap.xml`,
  };
}
