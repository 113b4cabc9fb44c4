import 'server-only';
// The gallery's first photo, announced with the page itself: a `Link: <…>; rel=preload;
// as=image` header on GET /gallery, so the browser asks for the first tile's image while the HTML is
// still arriving, in parallel with the list, instead of one round trip after it. The list the browser
// fetches (GET {crm}/api/gallery/public) still decides everything the gallery shows; this only warms the cache with the
// image that list is most likely to start with. Decision 0009.
//
// The server learns that image from its own copy of the list, refreshed at most once per `freshForMs`
// whatever the traffic (one request in flight at a time, bounded in time and size), so no visitor can
// make the server call the CRM more often, and no visitor waits for it: the request that finds the copy
// stale starts the refresh and is answered with the copy in hand. With `freshForMs` 0 there is no copy:
// each request reads the list and waits for it `waitMs` at most, so it announces the list as it is now.
import { normaliseGalleryResponse } from '@/lib/gallery/normalise';
import { mediaOf } from '@/lib/gallery/media-url';
import { gallerySrcSet, imageDelivery, sizedImageUrl, TILE_SIZES } from '@/lib/gallery/responsive-image';

/**
 * The width the header's own URL asks for, for a browser that does not read `imagesrcset` in a Link
 * header: a phone-sized tile (one of GALLERY_IMAGE_WIDTHS), never the original (a CRM photo can be 5 MB).
 */
export const FALLBACK_PRELOAD_WIDTH = 828;

/** A header value carries visible ASCII and spaces only: anything else would be refused by Node (a 500). */
const HEADER_SAFE = /^[\x20-\x7e]+$/;
/** A path on the site itself that can stand between the header's angle brackets as it is. */
const PLAIN_SITE_PATH = /^\/(?!\/)[^\s<>"]*$/;

/**
 * The Link header preloading the first tile's image for a gallery list (`body` as the CRM answers it),
 * with the `srcset` and `sizes` the tile will have, so the browser picks the same file; null when the
 * first tile is not an image the site serves (a video, no media, an image on another origin).
 */
export function firstPhotoPreloadLink(body: unknown, crmBase: string): string | null {
  const first = normaliseGalleryResponse(body)?.items[0];
  if (!first) return null;
  const media = mediaOf(first, crmBase);
  if (media.kind !== 'image') return null;
  const srcset = gallerySrcSet(media.src, crmBase);
  // Resized: the tile's srcset and sizes, and a phone-sized URL of its own. Delivered as it is (the
  // built-in samples): the file's own URL, which is what the tile asks for.
  const href = srcset ? sizedImageUrl(media.src, FALLBACK_PRELOAD_WIDTH, imageDelivery(media.src, crmBase)) : media.src;
  const link =
    `<${href}>; rel=preload; as=image; fetchpriority=high` + (srcset ? `; imagesrcset="${srcset}"; imagesizes="${TILE_SIZES}"` : '');
  // Only the site's own paths (an image elsewhere is not ours to announce), and only what a header carries.
  return PLAIN_SITE_PATH.test(href) && HEADER_SAFE.test(link) && !srcset?.includes('"') ? link : null;
}

/** Waits for `promise` (which never rejects), `ms` at most. */
async function atMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

type FirstPhotoPreloadOptions = {
  /** The gallery list, as the browser would receive it; throws when it cannot be had. */
  loadList: () => Promise<unknown>;
  crmBase: string;
  /**
   * After this, the next request starts a refresh in the background and is answered with the copy in
   * hand. 0 keeps no copy: every request reads the list and waits for it, `waitMs` at most.
   */
  freshForMs: number;
  /** After this, a value is too old to announce at all (the photo may have been taken down). */
  usableForMs: number;
  /** With `freshForMs` 0, how long a request waits for the list; then it responds with what it has. */
  waitMs: number;
  now?: () => number;
  /** Told of the first failure of a run of failures (a CRM down for an hour is one report, not sixty). */
  onError?: (error: unknown) => void;
};

/** The site's copy of the first photo's Link header; `current()` waits for the list only when no copy is kept. */
export function createFirstPhotoPreload(options: FirstPhotoPreloadOptions) {
  const now = options.now ?? Date.now;
  let value: { link: string | null; at: number } | null = null;
  let refreshing: Promise<void> | null = null;
  let failing = false;

  async function refresh() {
    const startedAt = now();
    let link: string | null = null;
    try {
      link = firstPhotoPreloadLink(await options.loadList(), options.crmBase);
      failing = false;
    } catch (error) {
      if (!failing) options.onError?.(error);
      failing = true;
    } finally {
      value = { link, at: startedAt };
      refreshing = null;
    }
  }

  return {
    /** The header to send now, or null; when the copy is stale, starts a refresh (and waits only when no copy is kept). */
    async current(): Promise<string | null> {
      if ((value ? now() - value.at : Infinity) >= options.freshForMs) {
        refreshing ??= refresh();
        if (options.freshForMs === 0) await atMost(refreshing, options.waitMs);
      }
      return value && now() - value.at < options.usableForMs ? value.link : null;
    },
  };
}
