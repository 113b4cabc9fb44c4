import type { MetadataRoute } from 'next';
import { business } from '@/content/business';

export default function manifest(): MetadataRoute.Manifest {
  return {
    name: business.legalName,
    short_name: business.name,
    description: business.description,
    start_url: '/',
    display: 'browser',
    background_color: '#ffffff',
    theme_color: '#0a2c47',
    lang: 'en-GB',
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
  };
}
