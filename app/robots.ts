import type { MetadataRoute } from 'next';
import { serverEnv } from '@/server/env';

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: '/api/' }],
    sitemap: `${serverEnv.SITE_URL}/sitemap.xml`,
  };
}
