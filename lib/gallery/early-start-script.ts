// The gallery's early start: an inline script in the prerendered page that asks the CRM for
// the list as the HTML arrives and, as soon as the list is known, starts the first tile's image and
// shows it in the loading skeleton's first frame, all before the page's JavaScript has downloaded. GalleryView then takes the list's response
// (lib/gallery/early-start.ts) instead of asking again. The script repeats, in a few lines, the rules
// the first tile follows (lib/gallery/normalise.ts, media-url.ts, responsive-image.ts); the browser
// test `gallery-images.spec.ts` holds the two together (the image the script starts is the one the
// tile shows, fetched once), and so does early-start-script.test.ts, which runs the script's text.
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';
import { galleryEndpoint } from './load-gallery';
import { EARLY_FRAME_ID, EARLY_START_GLOBAL } from './early-start-constants';
import { GALLERY_IMAGE_QUALITY, GALLERY_IMAGE_WIDTHS } from './image-widths';
import { TILE_SIZES } from './responsive-image';

type EarlyStartConfig = {
  url: string;
  base: string;
  origin: string;
  widths: number[];
  quality: number;
  sizes: string;
  global: string;
  frameId: string;
};

// The functions below run in the browser as they are, before any bundle: plain ES2017, no imports, and
// none refers to anything outside itself, since the script is made of their source text (earlyStartScript).

/** The first tile's image URL in the list's body; '' when the list has none or the first tile is a video. */
function firstTileImage(body: unknown, base: string): string {
  const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const text = (value: unknown) => (typeof value === 'number' && isFinite(value) ? String(value) : str(value));
  const record = body as { data?: unknown } | null;
  const items = Array.isArray(body) ? body : record && Array.isArray(record.data) ? (record.data as unknown[]) : null;
  if (!items) return '';
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
  if (!first || text(first.mimeType).toLowerCase().indexOf('video/') === 0) return '';
  const imageUrl = str(first.imageUrl);
  const key = str(first.s3Key);
  return imageUrl
    ? /^https?:\/\//i.test(imageUrl)
      ? imageUrl
      : base + (imageUrl.charAt(0) === '/' ? '' : '/') + imageUrl
    : key
      ? `${base}/api/gallery/image/${encodeURIComponent(key)}`
      : '';
}

/** The first tile's srcset candidates; null when its image is delivered as it is. */
function tileCandidates(src: string, config: EarlyStartConfig): string[] | null {
  if (config.origin && src.indexOf(`${config.origin}/`) === 0 && src.indexOf('?') < 0) {
    return config.widths.map((width) => `/_next/image?url=${encodeURIComponent(src)}&w=${width}&q=${config.quality} ${width}w`);
  }
  if (!config.origin && src.indexOf('/api/gallery/image/') === 0) {
    return config.widths.map((width) => `${src}?w=${width} ${width}w`);
  }
  return null;
}

/** Preloads the first tile's image and shows it in the loading skeleton's first frame. */
function showFirstTile(src: string, candidates: string[] | null, config: EarlyStartConfig) {
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
}

/**
 * Asks for the list, leaves the request on `window[config.global]` for GalleryView, and starts the
 * first tile's image once the list is known. The other functions come in as arguments. Never throws.
 */
function earlyStart(
  config: EarlyStartConfig,
  imageOf: typeof firstTileImage,
  candidatesOf: typeof tileCandidates,
  show: typeof showFirstTile,
) {
  try {
    const response = fetch(config.url, { headers: { Accept: 'application/json' } });
    (window as unknown as Record<string, unknown>)[config.global] = { url: config.url, response, taken: false };
    response
      .then((result) => (result.ok ? result.clone().json() : null))
      .then((body: unknown) => {
        const src = imageOf(body, config.base);
        if (src) show(src, candidatesOf(src, config), config);
      })
      .catch(() => undefined);
  } catch {
    // No fetch (a very old browser): GalleryView asks for the list itself.
  }
}

/** The inline script's source for a build's CRM base ('' for the built-in gallery). */
export function earlyStartScript(crmBase: string): string {
  const base = trimTrailingSlashes(crmBase);
  const config: EarlyStartConfig = {
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
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  // Each function's source text, the helpers passed to earlyStart as arguments.
  const parts = [firstTileImage, tileCandidates, showFirstTile].map((part) => part.toString());
  return `(${earlyStart.toString()})(${[json, ...parts].join(', ')})`;
}
