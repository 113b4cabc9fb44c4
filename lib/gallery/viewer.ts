/** Index arithmetic of the full-screen viewer: it runs across all items and wraps both ways. */
function wrapIndex(index: number, total: number): number {
  if (total <= 0) return 0;
  return ((index % total) + total) % total;
}

export function nextIndex(index: number, total: number): number {
  return wrapIndex(index + 1, total);
}

export function previousIndex(index: number, total: number): number {
  return wrapIndex(index - 1, total);
}

/** The 1-based counter, e.g. '3 of 12'. */
export function counterLabel(index: number, total: number): string {
  return `${wrapIndex(index, total) + 1} of ${total}`;
}

/** The items either side of the current one (to preload), without repeats or the current one. */
export function neighbourIndices(index: number, total: number): number[] {
  if (total <= 1) return [];
  return [...new Set([nextIndex(index, total), previousIndex(index, total)])];
}

const SWIPE_MIN_DISTANCE = 50;

/** A horizontal swipe: left (finger moves left) means next, right means previous; null when it was no swipe. */
export function swipeDirection(dx: number, dy: number, minDistance = SWIPE_MIN_DISTANCE): 'next' | 'previous' | null {
  if (Math.abs(dx) < minDistance || Math.abs(dx) <= Math.abs(dy) * 1.2) return null;
  return dx < 0 ? 'next' : 'previous';
}
