// Gallery images at the size they are shown: the widths every image exists in, the `sizes` of the
// tile grid and of the viewer, and the `srcset` for an item's media URL. The media URL itself still
// follows the CRM's rule (lib/gallery/media-url.ts) and stays the <img>'s `src`; only the bytes change.
// Decision 0009.
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';
import type { GalleryMedia } from './types';

import { GALLERY_IMAGE_QUALITY, GALLERY_IMAGE_WIDTHS, type GalleryImageView } from './image-widths';

/** The grid of components/gallery/gallery-view.tsx: its breakpoints (Tailwind's sm, md, xl), columns, gap and frame. */
const GALLERY_GRID = {
  /** max-w-6xl */
  containerMax: 1152,
  /** px-4 on each side */
  padding: 16,
  /** gap-6 */
  gap: 24,
  columns: [
    { minViewport: 1280, columns: 4 },
    { minViewport: 768, columns: 3 },
    { minViewport: 640, columns: 2 },
    { minViewport: 0, columns: 1 },
  ],
} as const;

function columnsAt(viewportWidth: number): number {
  return GALLERY_GRID.columns.find((step) => viewportWidth >= step.minViewport)?.columns ?? 1;
}

/** The CSS width of a tile's image at a viewport width (CSS px): what the `sizes` below describes. */
export function tileWidth(viewportWidth: number): number {
  const { containerMax, padding, gap } = GALLERY_GRID;
  const columns = columnsAt(viewportWidth);
  const content = Math.min(viewportWidth, containerMax) - 2 * padding;
  return (content - (columns - 1) * gap) / columns;
}

/**
 * `sizes` of a tile, derived from GALLERY_GRID: one entry per layout of the grid from the widest screen
 * down, split where the container stops growing (beyond it a tile has a fixed width).
 */
function tileSizes(): string {
  const { containerMax, padding, gap } = GALLERY_GRID;
  const entries: string[] = [];
  let upper = Infinity;
  for (const { minViewport, columns } of GALLERY_GRID.columns) {
    const fixedPx = 2 * padding + (columns - 1) * gap;
    const fluid = columns === 1 ? `calc(100vw - ${fixedPx}px)` : `calc((100vw - ${fixedPx}px) / ${columns})`;
    const fixedFrom = Math.max(minViewport, containerMax);
    if (fixedFrom < upper) entries.push(`(min-width: ${fixedFrom}px) ${Math.ceil(tileWidth(fixedFrom))}px`);
    if (minViewport < containerMax) entries.push(minViewport === 0 ? fluid : `(min-width: ${minViewport}px) ${fluid}`);
    upper = minViewport;
  }
  return entries.join(', ');
}

export const TILE_SIZES = tileSizes();

/** The viewer shows one image at most as wide as the screen. */
export const VIEWER_SIZES = '100vw';

type ImageDelivery =
  /** A CRM image: resized by Next's optimiser (`/_next/image`), which accepts the CRM's origin only. */
  | 'optimiser'
  /** The built-in gallery's own images: `npm run gallery add` stored the sizes; `?w=` picks one. */
  | 'stored-sizes'
  /** Anything else (the built-in samples, which are small already): the file as it is. */
  | 'as-is';

const BUILT_IN_MEDIA = '/api/gallery/image/';

/** How an image at `src` (an item's media URL) reaches the browser, given the build's CRM base. */
export function imageDelivery(src: string, crmBase: string): ImageDelivery {
  const base = trimTrailingSlashes(crmBase);
  if (base === '') return src.startsWith(BUILT_IN_MEDIA) ? 'stored-sizes' : 'as-is';
  let crmOrigin: string;
  try {
    crmOrigin = new URL(base).origin;
  } catch {
    return 'as-is';
  }
  // Out of contract, an absolute imageUrl may point elsewhere: the optimiser would refuse it.
  return src.startsWith(`${crmOrigin}/`) && !src.includes('?') ? 'optimiser' : 'as-is';
}

/** The URL of `src` at `width` for a delivery, at the quality of where it is shown (a tile by default). */
export function sizedImageUrl(src: string, width: number, delivery: ImageDelivery, view: GalleryImageView = 'tile'): string {
  if (delivery === 'optimiser') return `/_next/image?url=${encodeURIComponent(src)}&w=${width}&q=${GALLERY_IMAGE_QUALITY[view]}`;
  if (delivery === 'stored-sizes') return `${src}?w=${width}`;
  return src;
}

/** `srcset` for an item's media when it is an image that is resized; undefined otherwise. */
export function srcSetOf(media: GalleryMedia, crmBase: string, view: GalleryImageView = 'tile'): string | undefined {
  return media.kind === 'image' ? gallerySrcSet(media.src, crmBase, view) : undefined;
}

/** `srcset` for a video's still frame, when it has one that is resized. */
export function posterSrcSetOf(media: GalleryMedia, crmBase: string): string | undefined {
  return media.kind === 'video' && media.poster ? gallerySrcSet(media.poster, crmBase) : undefined;
}

/** The viewer's video poster (an attribute without srcset): the frame at a width that fills most screens. */
const VIEWER_POSTER_WIDTH = 1080;

export function viewerPosterOf(media: GalleryMedia, crmBase: string): string | undefined {
  if (media.kind !== 'video' || !media.poster) return undefined;
  return sizedImageUrl(media.poster, VIEWER_POSTER_WIDTH, imageDelivery(media.poster, crmBase), 'viewer');
}

/** `srcset` for an image at `src` (undefined when it is delivered as it is). */
export function gallerySrcSet(src: string, crmBase: string, view: GalleryImageView = 'tile'): string | undefined {
  const delivery = imageDelivery(src, crmBase);
  if (delivery === 'as-is') return undefined;
  return GALLERY_IMAGE_WIDTHS.map((width) => `${sizedImageUrl(src, width, delivery, view)} ${width}w`).join(', ');
}

/**
 * The widths `npm run gallery add` stores for an image `originalWidth` px wide: every gallery width
 * below it, and the next one up holding the image at its own width (never enlarged).
 */
export function storedWidthsFor(originalWidth: number): number[] {
  const below = GALLERY_IMAGE_WIDTHS.filter((width) => width < originalWidth);
  const atOrAbove = GALLERY_IMAGE_WIDTHS.find((width) => width >= originalWidth);
  return atOrAbove === undefined ? [...below] : [...below, atOrAbove];
}

/** Which stored width answers a request for `requested` (or for no width): the narrowest at least as wide, else the widest. */
export function storedWidthFor(stored: readonly number[], requested?: number): number | undefined {
  const sorted = [...stored].sort((a, b) => a - b);
  if (requested === undefined) return sorted[sorted.length - 1];
  return sorted.find((width) => width >= requested) ?? sorted[sorted.length - 1];
}

export function isGalleryImageWidth(value: number): boolean {
  return (GALLERY_IMAGE_WIDTHS as readonly number[]).includes(value);
}
