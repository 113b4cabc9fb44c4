'use client';

import { useEffect, useId, useRef, type KeyboardEvent, type RefObject, type TouchEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { mediaOf } from '@/lib/gallery/media-url';
import type { GalleryItem } from '@/lib/gallery/types';
import { counterLabel, neighbourIndices, nextIndex, previousIndex, swipeDirection } from '@/lib/gallery/viewer';
import { galleryMessages } from '@/content/gallery';
import { CloseIcon, NextIcon, NoMediaIcon, PreviousIcon } from '@/components/ui/icons';
import { srcSetOf, viewerPosterOf, VIEWER_SIZES } from '@/lib/gallery/responsive-image';

type GalleryViewerProps = {
  /** All items: the viewer runs across every category. */
  items: readonly GalleryItem[];
  /** The current position in `items`, or null when closed. */
  index: number | null;
  crmBase: string;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  returnFocusRef: RefObject<HTMLElement | null>;
};

const iconButton =
  'pointer-events-auto inline-flex h-12 w-12 items-center justify-center rounded-full bg-black/60 text-white ring-1 ring-white/30 hover:bg-black/80 focus-visible:bg-black/80';

type Direction = 'next' | 'previous';

const STEP = {
  previous: { label: galleryMessages.previousItem, side: 'left-2 sm:left-4', Icon: PreviousIcon },
  next: { label: galleryMessages.nextItem, side: 'right-2 sm:right-4', Icon: NextIcon },
} as const;

/** The viewer's previous or next button, at its side of the photo. */
function StepButton({ direction, onStep }: { direction: Direction; onStep: (direction: Direction) => void }) {
  const { label, side, Icon } = STEP[direction];
  return (
    <button
      type="button"
      onClick={() => onStep(direction)}
      className={`${iconButton} absolute ${side} top-1/2 -translate-y-1/2`}
      aria-label={label}
    >
      <Icon />
    </button>
  );
}

/** Keeps the neighbours' images in the browser cache so previous/next show at once. */
function usePreloadNeighbours(items: readonly GalleryItem[], index: number | null, crmBase: string) {
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

/** The full-screen viewer: image or video, title, category, description, tags and 'n of total'. */
export function GalleryViewer({ items, index, crmBase, onIndexChange, onClose, returnFocusRef }: GalleryViewerProps) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const open = index !== null && items.length > 0;
  const current = open ? items[index] : undefined;
  const total = items.length;
  const several = total > 1;

  usePreloadNeighbours(items, index, crmBase);

  // The dialog (a child) has called showModal() by the time this effect runs.
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);

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

  const media = current ? mediaOf(current, crmBase) : null;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      onKeyDown={handleKeyDown}
      returnFocusRef={returnFocusRef}
      className="fixed inset-0 m-0 h-dvh max-h-none w-full max-w-none overflow-hidden bg-slate-950 p-0 text-white backdrop:bg-slate-950"
    >
      {current && media ? (
        // Wrappers let clicks through (pointer-events: none) so a click on any empty area reaches the
        // <dialog> itself, which the Dialog treats as a click on the backdrop and closes.
        <div className="pointer-events-none flex h-full flex-col" onTouchStart={handleTouchStart} onTouchEnd={handleTouchEnd}>
          <div className="flex items-center justify-between gap-4 p-3 sm:p-4">
            <p className="rounded-full bg-black/60 px-3 py-1 text-sm font-semibold tabular-nums" data-testid="viewer-counter">
              {counterLabel(index ?? 0, total)}
            </p>
            {/* Announces each move: the item's title and its place. */}
            <p className="sr-only" aria-live="polite" aria-atomic="true">
              {current.title}, {counterLabel(index ?? 0, total)}
            </p>
            <button ref={closeRef} type="button" onClick={onClose} className={iconButton} aria-label={galleryMessages.closeViewer}>
              <CloseIcon />
            </button>
          </div>

          <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 sm:px-20">
            {media.kind === 'image' ? (
              <img
                key={media.src}
                src={media.src}
                srcSet={srcSetOf(media, crmBase, 'viewer')}
                sizes={srcSetOf(media, crmBase, 'viewer') ? VIEWER_SIZES : undefined}
                alt={current.title}
                decoding="async"
                className="pointer-events-auto max-h-full max-w-full touch-pan-y select-none object-contain shadow-2xl"
                draggable={false}
              />
            ) : null}
            {media.kind === 'video' ? (
              <video
                key={media.src}
                src={media.src}
                poster={viewerPosterOf(media, crmBase)}
                controls
                autoPlay
                playsInline
                aria-label={current.title}
                className="pointer-events-auto max-h-full max-w-full touch-pan-y bg-black shadow-2xl"
              />
            ) : null}
            {media.kind === 'none' ? (
              <div className="pointer-events-auto flex aspect-[4/3] w-full max-w-xl touch-pan-y flex-col items-center justify-center gap-3 rounded-xl bg-slate-800 text-slate-200">
                <NoMediaIcon size={56} />
                <span className="text-lg font-semibold">{galleryMessages.noMedia}</span>
              </div>
            ) : null}

            {several ? (
              <>
                <StepButton direction="previous" onStep={go} />
                <StepButton direction="next" onStep={go} />
              </>
            ) : null}
          </div>

          <div className="pointer-events-auto mx-auto max-h-[35dvh] w-full max-w-3xl overflow-y-auto px-4 pb-4 pt-3 sm:pb-6">
            <h2 id={titleId} className="text-xl font-bold sm:text-2xl">
              {current.title}
            </h2>
            <p className="mt-1 text-sm font-semibold uppercase tracking-wide text-accent-400">{current.category}</p>
            {current.description ? <p className="mt-2 text-slate-200">{current.description}</p> : null}
            {current.tags.length > 0 ? (
              <ul className="mt-3 flex flex-wrap gap-2" aria-label={galleryMessages.tagsLabel}>
                {current.tags.map((tag, position) => (
                  <li key={`${position}-${tag}`} className="rounded-full bg-white/15 px-3 py-1 text-sm text-white">
                    {tag}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
