// The gallery's early start: an inline script in the prerendered page that asks the CRM for
// the list as the HTML arrives and, as soon as the list is known, starts the first tile's image and
// shows it in the loading skeleton's first frame, all before the page's JavaScript has downloaded. GalleryView then takes the list's response
// (lib/gallery/early-start.ts) instead of asking again. The script repeats, in a few lines, the rules
// the first tile follows (lib/gallery/normalise.ts, media-url.ts, responsive-image.ts); the browser
// test `gallery-images.spec.ts` holds the two together (the image the script starts is the one the
// tile shows, fetched once).
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';
import { galleryEndpoint } from './load-gallery';
import { EARLY_FRAME_ID, EARLY_START_GLOBAL } from './early-start-constants';
import { GALLERY_IMAGE_QUALITY, GALLERY_IMAGE_WIDTHS } from './image-widths';
import { TILE_SIZES } from './responsive-image';

/** Runs in the browser as it is, before any bundle: plain ES2017, no imports, never throws. */
function earlyStart(config: {
  url: string;
  base: string;
  origin: string;
  widths: number[];
  quality: number;
  sizes: string;
  global: string;
  frameId: string;
}) {
  try {
    const response = fetch(config.url, { headers: { Accept: 'application/json' } });
    (window as unknown as Record<string, unknown>)[config.global] = { url: config.url, response, taken: false };
    const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
    const text = (value: unknown) => (typeof value === 'number' && isFinite(value) ? String(value) : str(value));
    response
      .then((answer) => (answer.ok ? answer.clone().json() : null))
      .then((body: unknown) => {
        const record = body as { data?: unknown } | null;
        const items = Array.isArray(body) ? body : record && Array.isArray(record.data) ? (record.data as unknown[]) : null;
        if (!items) return;
        // The first complete item is the first tile: its category is the one selected first.
        const first = items.find((raw) => {
          const item = raw as Record<string, unknown> | null;
          return (
            !!item &&
            typeof item === 'object' &&
            !!text(item._id) &&
            !!text(item.title) &&
            !!(str(item.imageUrl) || str(item.s3Key) || text(item.filename))
          );
        }) as Record<string, unknown> | undefined;
        if (!first || text(first.mimeType).toLowerCase().indexOf('video/') === 0) return;
        const imageUrl = str(first.imageUrl);
        const key = str(first.s3Key);
        const src = imageUrl
          ? /^https?:\/\//i.test(imageUrl)
            ? imageUrl
            : config.base + (imageUrl.charAt(0) === '/' ? '' : '/') + imageUrl
          : key
            ? `${config.base}/api/gallery/image/${encodeURIComponent(key)}`
            : '';
        if (!src) return;
        let candidates: string[] | null = null;
        if (config.origin && src.indexOf(`${config.origin}/`) === 0 && src.indexOf('?') < 0) {
          candidates = config.widths.map((width) => `/_next/image?url=${encodeURIComponent(src)}&w=${width}&q=${config.quality} ${width}w`);
        } else if (!config.origin && src.indexOf('/api/gallery/image/') === 0) {
          candidates = config.widths.map((width) => `${src}?w=${width} ${width}w`);
        }
        const link = document.createElement('link');
        link.rel = 'preload';
        link.as = 'image';
        link.setAttribute('fetchpriority', 'high');
        if (candidates) {
          link.setAttribute('imagesrcset', candidates.join(', '));
          link.setAttribute('imagesizes', config.sizes);
        }
        link.href = src;
        document.head.appendChild(link);
        // The photo in the skeleton's first frame, where the first tile will be: painted as soon as it
        // arrives, not after the page's JavaScript (GalleryView's LoadingState leaves the frame to us).
        const paint = () => {
          const frame = document.getElementById(config.frameId);
          if (!frame || frame.firstChild) return;
          const image = document.createElement('img');
          if (candidates) {
            image.setAttribute('srcset', candidates.join(', '));
            image.setAttribute('sizes', config.sizes);
          }
          image.src = src;
          image.alt = '';
          image.width = 800;
          image.height = 600;
          image.setAttribute('fetchpriority', 'high');
          image.className = 'h-full w-full object-cover';
          frame.appendChild(image);
        };
        if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', paint);
        else paint();
      })
      .catch(() => undefined);
  } catch {
    // No fetch (a very old browser): GalleryView asks for the list itself.
  }
}

/** The inline script's source for a build's CRM base ('' for the built-in gallery). */
export function earlyStartScript(crmBase: string): string {
  const base = trimTrailingSlashes(crmBase);
  const config = {
    url: galleryEndpoint(crmBase),
    base,
    origin: base === '' ? '' : new URL(base).origin,
    widths: [...GALLERY_IMAGE_WIDTHS],
    quality: GALLERY_IMAGE_QUALITY.tile,
    sizes: TILE_SIZES,
    global: EARLY_START_GLOBAL,
    frameId: EARLY_FRAME_ID,
  };
  // JSON inside a <script>: '<' escaped so no value can close the element.
  return `(${earlyStart.toString()})(${JSON.stringify(config).replace(/</g, '\\u003c')})`;
}
