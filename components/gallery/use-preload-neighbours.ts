'use client';

import { useEffect, useRef } from 'react';
import { mediaOf } from '@/lib/gallery/media-url';
import type { GalleryItem } from '@/lib/gallery/types';
import { neighbourIndices } from '@/lib/gallery/viewer';
import { srcSetOf, VIEWER_SIZES } from '@/lib/gallery/responsive-image';

/** Keeps the neighbours' images in the browser cache so previous/next show at once. */
export function usePreloadNeighbours(items: readonly GalleryItem[], index: number | null, crmBase: string) {
  const cache = useRef(new Map<string, HTMLImageElement>());
  useEffect(() => {
    if (index === null) return;
    for (const neighbour of neighbourIndices(index, items.length)) {
      const item = items[neighbour];
      if (!item) continue;
      const media = mediaOf(item, crmBase);
      if (media.kind !== 'image' || cache.current.has(media.src)) continue;
      const image = new Image();
      image.decoding = 'async';
      // The same candidate the viewer will pick: sizes and srcset before src, so only it is fetched.
      const srcSet = srcSetOf(media, crmBase, 'viewer');
      if (srcSet) {
        image.sizes = VIEWER_SIZES;
        image.srcset = srcSet;
      }
      image.src = media.src;
      cache.current.set(media.src, image);
    }
  }, [items, index, crmBase]);
}
