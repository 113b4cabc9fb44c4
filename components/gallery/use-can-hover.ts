'use client';

import { useSyncExternalStore } from 'react';

const HOVER_QUERY = '(hover: hover)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(HOVER_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the main pointer can hover (a mouse or trackpad). On a phone there is no hover to start a
 * tile's video, so the tile shows a still frame and fetches no video bytes. Before hydration: no.
 */
export function useCanHover(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(HOVER_QUERY).matches,
    () => false,
  );
}
