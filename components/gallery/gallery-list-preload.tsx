import { preconnect, preload } from 'react-dom';
import { galleryEndpoint } from '@/lib/gallery/load-gallery';

/**
 * Starts `GET {crm}/api/gallery/public` from the document's head (issue 12): the list arrives while the
 * page's JavaScript downloads, and GalleryView's fetch is answered by this preload instead of going out
 * again. The fetch is CORS without credentials, so the preload's crossorigin is "anonymous" to match.
 */
export function GalleryListPreload({ crmBase }: { crmBase: string }) {
  const endpoint = galleryEndpoint(crmBase);
  if (crmBase !== '') preconnect(new URL(endpoint).origin, { crossOrigin: 'anonymous' });
  preload(endpoint, { as: 'fetch', crossOrigin: 'anonymous' });
  return null;
}
