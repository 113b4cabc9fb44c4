import type { GalleryItem, GalleryMedia } from './types';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';

const ABSOLUTE_URL = /^https?:\/\//i;

/**
 * The CRM's media URL rule: `imageUrl` -> the CRM base plus that path; otherwise `s3Key` ->
 * `{base}/api/gallery/image/{s3Key}` (URI-encoded); otherwise no media. An empty base means the
 * site's own origin. Out of contract but harmless: an imageUrl missing its leading slash gets one,
 * and an absolute http(s) imageUrl is used as it is rather than glued onto the base.
 */
export function mediaUrl(item: Pick<GalleryItem, 'imageUrl' | 's3Key'>, crmBase: string): string | null {
  const base = trimTrailingSlashes(crmBase);
  if (item.imageUrl) {
    if (ABSOLUTE_URL.test(item.imageUrl)) return item.imageUrl;
    return `${base}${item.imageUrl.startsWith('/') ? '' : '/'}${item.imageUrl}`;
  }
  if (item.s3Key) return `${base}/api/gallery/image/${encodeURIComponent(item.s3Key)}`;
  return null;
}

function isVideo(item: Pick<GalleryItem, 'mimeType'>): boolean {
  return item.mimeType.startsWith('video/');
}

/** What to show for an item: an image, a video (type starting with `video/`), or the 'No Media' placeholder. */
export function mediaOf(item: Pick<GalleryItem, 'imageUrl' | 's3Key' | 'mimeType' | 'posterUrl'>, crmBase: string): GalleryMedia {
  const src = mediaUrl(item, crmBase);
  if (!src) return { kind: 'none' };
  if (!isVideo(item)) return { kind: 'image', src };
  // A video's still frame, when the item has one, is found like an imageUrl.
  const poster = item.posterUrl ? mediaUrl({ imageUrl: item.posterUrl }, crmBase) : null;
  return { kind: 'video', src, type: item.mimeType, ...(poster ? { poster } : {}) };
}
