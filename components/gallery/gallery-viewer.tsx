'use client';

import { useEffect, useId, useRef, type RefObject } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { mediaOf } from '@/lib/gallery/media-url';
import type { GalleryItem, GalleryMedia } from '@/lib/gallery/types';
import { counterLabel } from '@/lib/gallery/viewer';
import { galleryMessages } from '@/content/gallery';
import { CloseIcon, NextIcon, NoMediaIcon, PreviousIcon } from '@/components/ui/icons';
import { srcSetOf, viewerPosterOf, VIEWER_SIZES } from '@/lib/gallery/responsive-image';
import { usePreloadNeighbours } from './use-preload-neighbours';
import { useViewerSteps, type Direction } from './use-viewer-steps';

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

type ViewerTopBarProps = {
  title: string;
  counter: string;
  closeRef: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
};

/** The counter, the announcement of each move and the close button. */
function ViewerTopBar({ title, counter, closeRef, onClose }: ViewerTopBarProps) {
  return (
    <div className="flex items-center justify-between gap-4 p-3 sm:p-4">
      <p className="rounded-full bg-black/60 px-3 py-1 text-sm font-semibold tabular-nums" data-testid="viewer-counter">
        {counter}
      </p>
      {/* Announces each move: the item's title and its place. */}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {title}, {counter}
      </p>
      <button ref={closeRef} type="button" onClick={onClose} className={iconButton} aria-label={galleryMessages.closeViewer}>
        <CloseIcon />
      </button>
    </div>
  );
}

/** The item's image, video, or the 'No Media' placeholder, at the largest size the screen allows. */
function ViewerMedia({ media, title, crmBase }: { media: GalleryMedia; title: string; crmBase: string }) {
  return (
    <>
      {media.kind === 'image' ? (
        <img
          key={media.src}
          src={media.src}
          srcSet={srcSetOf(media, crmBase, 'viewer')}
          sizes={srcSetOf(media, crmBase, 'viewer') ? VIEWER_SIZES : undefined}
          alt={title}
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
          aria-label={title}
          className="pointer-events-auto max-h-full max-w-full touch-pan-y bg-black shadow-2xl"
        />
      ) : null}
      {media.kind === 'none' ? (
        <div className="pointer-events-auto flex aspect-[4/3] w-full max-w-xl touch-pan-y flex-col items-center justify-center gap-3 rounded-xl bg-slate-800 text-slate-200">
          <NoMediaIcon size={56} />
          <span className="text-lg font-semibold">{galleryMessages.noMedia}</span>
        </div>
      ) : null}
    </>
  );
}

/** Title (the dialog's name), category, description and tags below the media. */
function ViewerCaption({ item, titleId }: { item: GalleryItem; titleId: string }) {
  return (
    <div className="pointer-events-auto mx-auto max-h-[35dvh] w-full max-w-3xl overflow-y-auto px-4 pb-4 pt-3 sm:pb-6">
      <h2 id={titleId} className="text-xl font-bold sm:text-2xl">
        {item.title}
      </h2>
      <p className="mt-1 text-sm font-semibold uppercase tracking-wide text-accent-400">{item.category}</p>
      {item.description ? <p className="mt-2 text-slate-200">{item.description}</p> : null}
      {item.tags.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={galleryMessages.tagsLabel}>
          {item.tags.map((tag, position) => (
            <li key={`${position}-${tag}`} className="rounded-full bg-white/15 px-3 py-1 text-sm text-white">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The full-screen viewer: image or video, title, category, description, tags and 'n of total'. */
export function GalleryViewer({ items, index, crmBase, onIndexChange, onClose, returnFocusRef }: GalleryViewerProps) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const open = index !== null && items.length > 0;
  const current = open ? items[index] : undefined;
  const total = items.length;
  const { go, handleKeyDown, handleTouchStart, handleTouchEnd } = useViewerSteps(index, total, onIndexChange);

  usePreloadNeighbours(items, index, crmBase);

  // The dialog (a child) has called showModal() by the time this effect runs.
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);

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
          <ViewerTopBar title={current.title} counter={counterLabel(index ?? 0, total)} closeRef={closeRef} onClose={onClose} />

          <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 sm:px-20">
            <ViewerMedia media={media} title={current.title} crmBase={crmBase} />

            {total > 1 ? (
              <>
                <StepButton direction="previous" onStep={go} />
                <StepButton direction="next" onStep={go} />
              </>
            ) : null}
          </div>

          <ViewerCaption item={current} titleId={titleId} />
        </div>
      ) : null}
    </Dialog>
  );
}
