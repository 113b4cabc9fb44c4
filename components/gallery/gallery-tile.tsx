'use client';

import { useRef, type MouseEvent, type RefObject } from 'react';
import type { GalleryItem, GalleryMedia } from '@/lib/gallery/types';
import { useCanHover } from './use-can-hover';
import { useNearViewport } from './use-near-viewport';
import { galleryMessages } from '@/content/gallery';
import { NoMediaIcon } from '@/components/ui/icons';
import { TILE_SIZES } from '@/lib/gallery/responsive-image';

type GalleryTileProps = {
  item: GalleryItem;
  media: GalleryMedia;
  /** The image (or a video's still frame) at the gallery's widths (lib/gallery/responsive-image.ts), when it is resized. */
  srcSet?: string;
  onOpen: (event: MouseEvent<HTMLButtonElement>) => void;
  /** The first tile is in view on every screen size: its image loads at once, ahead of the rest. */
  first?: boolean;
};

function playQuietly(video: HTMLVideoElement | null) {
  if (!video) return;
  video.muted = true;
  // play() rejects when a pause() interrupts it (the pointer left quickly): nothing to report.
  void video.play().catch(() => undefined);
}

type TileFrameProps = { item: GalleryItem; srcSet?: string; first: boolean };

/** An image tile's photo, eager and first in line for the first tile. */
function TileImage({ item, src, srcSet, first }: TileFrameProps & { src: string }) {
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? TILE_SIZES : undefined}
      alt={item.title}
      loading={first ? 'eager' : 'lazy'}
      fetchPriority={first ? 'high' : 'auto'}
      decoding="async"
      width={800}
      height={600}
      className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.03] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
    />
  );
}

type TileVideoProps = Omit<TileFrameProps, 'item'> & {
  media: Extract<GalleryMedia, { kind: 'video' }>;
  /** Whether the video plays on hover and focus (a pointer that can hover); otherwise only its still frame shows. */
  playsOnHover: boolean;
  nearViewport: boolean;
  videoRef: RefObject<HTMLVideoElement | null>;
};

/** A video tile: the muted video that plays on hover, else its still frame or a play symbol; the "Video" badge. */
function TileVideo({ media, srcSet, first, playsOnHover, nearViewport, videoRef }: TileVideoProps) {
  return (
    <>
      {playsOnHover ? (
        <video
          ref={videoRef}
          src={nearViewport ? media.src : undefined}
          poster={media.poster}
          muted
          loop
          playsInline
          // With a still frame to show, no video bytes until the pointer asks for them.
          preload={media.poster ? 'none' : 'metadata'}
          aria-hidden="true"
          className="h-full w-full object-cover"
        />
      ) : media.poster ? (
        <img
          src={media.poster}
          srcSet={srcSet}
          sizes={srcSet ? TILE_SIZES : undefined}
          // The tile's name already holds "Video" and the title.
          alt=""
          loading={first ? 'eager' : 'lazy'}
          decoding="async"
          width={800}
          height={600}
          className="h-full w-full object-cover"
        />
      ) : (
        <span aria-hidden="true" className="flex h-full w-full items-center justify-center bg-slate-800 text-white/80">
          <svg width="48" height="48" viewBox="0 0 12 12" fill="currentColor">
            <path d="M3 1.5l7.5 4.5-7.5 4.5z" />
          </svg>
        </span>
      )}
      <span className="pointer-events-none absolute bottom-2 left-2 inline-flex items-center gap-1 rounded-md bg-black/75 px-2 py-1 text-xs font-semibold text-white">
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12" fill="currentColor">
          <path d="M2 1l9 5-9 5z" />
        </svg>
        {galleryMessages.video}
      </span>
    </>
  );
}

/** The 'No Media' placeholder of an item without an image or video. */
function TileNoMedia() {
  return (
    <span className="flex h-full w-full flex-col items-center justify-center gap-2 bg-slate-100 text-slate-600">
      <NoMediaIcon size={40} />
      <span className="text-sm font-semibold">{galleryMessages.noMedia}</span>
    </span>
  );
}

/**
 * One grid entry: the media in a fixed 4:3 frame, then title and category; a button that opens the
 * viewer. Its accessible name comes from its content (the image's alt, "Video" or "No Media", the
 * title, the category), so it contains every word shown on it and a speech-input user can say what
 * they see (WCAG 2.5.3, Label in Name).
 */
export function GalleryTile({ item, media, srcSet, onOpen, first = false }: GalleryTileProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLSpanElement>(null);
  const nearViewport = useNearViewport(frameRef);
  const canHover = useCanHover();
  // Without hover (a phone) a video tile never plays: it shows its still frame and fetches no video bytes.
  const isVideo = media.kind === 'video' && canHover;

  const start = () => {
    if (isVideo) playQuietly(videoRef.current);
  };
  const stop = () => {
    if (isVideo) videoRef.current?.pause();
  };

  return (
    <button
      type="button"
      onClick={onOpen}
      onMouseEnter={start}
      onMouseLeave={stop}
      onFocus={start}
      onBlur={stop}
      data-gallery-item={item._id}
      className="group flex h-full w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white text-left shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:-translate-y-0.5 motion-reduce:transition-none motion-reduce:hover:translate-y-0"
    >
      <span ref={frameRef} className="relative block aspect-[4/3] w-full overflow-hidden bg-slate-200">
        {media.kind === 'image' ? <TileImage item={item} src={media.src} srcSet={srcSet} first={first} /> : null}
        {media.kind === 'video' ? (
          <TileVideo media={media} srcSet={srcSet} first={first} playsOnHover={isVideo} nearViewport={nearViewport} videoRef={videoRef} />
        ) : null}
        {media.kind === 'none' ? <TileNoMedia /> : null}
      </span>
      <span className="flex flex-1 flex-col gap-1 p-4">
        <span className="font-semibold text-brand-900">{item.title}</span>
        <span className="text-sm text-slate-600">{item.category}</span>
      </span>
    </button>
  );
}
