'use client';

import { useRef, type KeyboardEvent, type TouchEvent } from 'react';
import { nextIndex, previousIndex, swipeDirection } from '@/lib/gallery/viewer';

export type Direction = 'next' | 'previous';

/** Moving through the viewer's items: the step buttons, the arrow keys and a swipe, all wrapping round. */
export function useViewerSteps(index: number | null, total: number, onIndexChange: (index: number) => void) {
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const several = total > 1;

  const go = (direction: Direction) => {
    if (index === null || !several) return;
    onIndexChange(direction === 'next' ? nextIndex(index, total) : previousIndex(index, total));
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    // Arrow keys on a focused video seek it; elsewhere they move through the gallery.
    if (event.target instanceof HTMLMediaElement) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      go('next');
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go('previous');
    }
  };

  const handleTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    touchStart.current = event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const handleTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
    const direction = swipeDirection(touch.clientX - start.x, touch.clientY - start.y);
    if (direction) go(direction);
  };

  return { go, handleKeyDown, handleTouchStart, handleTouchEnd };
}
