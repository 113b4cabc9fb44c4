import { preconnect, preload } from 'react-dom';
import { earlyStartScript } from '@/lib/gallery/early-start-script';
import { galleryEndpoint } from '@/lib/gallery/load-gallery';

/**
 * Starts the gallery before its JavaScript: a preconnect to the CRM and a preload of
 * `GET {crm}/api/gallery/public` in the document's head, then an inline script that takes that
 * response and, as soon as the list is known, starts the first tile's image. GalleryView takes the
 * same response (lib/gallery/early-start.ts), so the list is asked for once. The fetch is CORS without
 * credentials, so the preload's crossorigin is "anonymous" to match.
 */
export function GalleryListPreload({ crmBase }: { crmBase: string }) {
  const endpoint = galleryEndpoint(crmBase);
  if (crmBase !== '') preconnect(new URL(endpoint).origin, { crossOrigin: 'anonymous' });
  preload(endpoint, { as: 'fetch', crossOrigin: 'anonymous' });
  // Prerendered, so the script's hash is in the page's Content-Security-Policy (scripts/site/csp-hashes.ts).
  return <script dangerouslySetInnerHTML={{ __html: earlyStartScript(crmBase) }} />;
}
