'use client';

import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type MouseEvent, type SetStateAction } from 'react';
import { crmBaseUrl } from '@/lib/public-env';
import { galleryMessages } from '@/content/gallery';
import { GALLERY_LOAD_FAILED_MESSAGE, loadGallery } from '@/lib/gallery/load-gallery';
import { mediaOf } from '@/lib/gallery/media-url';
import type { GalleryItem } from '@/lib/gallery/types';
import { GalleryTile } from './gallery-tile';
import { GalleryViewer } from './gallery-viewer';
import { posterSrcSetOf, srcSetOf } from '@/lib/gallery/responsive-image';
import { galleryApiRequest } from '@/lib/gallery/early-start';
import { EARLY_FRAME_ID } from '@/lib/gallery/early-start-constants';

type GalleryState = { status: 'loading' } | { status: 'error' } | { status: 'loaded'; items: GalleryItem[]; categories: string[] };

const gridClass = 'grid grid-cols-1 gap-6 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4';

function LoadingState() {
  return (
    <div aria-busy="true">
      <p role="status" className="mb-6 flex items-center gap-3 font-semibold text-brand-800">
        <span
          aria-hidden="true"
          className="h-5 w-5 animate-spin rounded-full border-2 border-brand-100 border-t-brand-800 motion-reduce:animate-none"
        />
        Loading gallery…
      </p>
      <ul aria-hidden="true" className={gridClass}>
        {Array.from({ length: 8 }, (_, position) => (
          <li key={position} className="overflow-hidden rounded-xl border border-slate-200">
            {position === 0 ? (
              // The early-start script puts the first photo here before hydration (lib/gallery/early-start-script.ts);
              // an empty innerHTML that React leaves alone, so what the script added is no mismatch.
              <div
                id={EARLY_FRAME_ID}
                className="aspect-[4/3] animate-pulse bg-slate-200 has-[img]:animate-none motion-reduce:animate-none"
                dangerouslySetInnerHTML={{ __html: '' }}
              />
            ) : (
              <div className="aspect-[4/3] animate-pulse bg-slate-200 motion-reduce:animate-none" />
            )}
            <div className="space-y-2 p-4">
              <div className="h-4 w-3/4 rounded bg-slate-200" />
              <div className="h-3 w-1/3 rounded bg-slate-100" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Selection = {
  setSelectedCategory: Dispatch<SetStateAction<string | null>>;
  setViewerIndex: Dispatch<SetStateAction<number | null>>;
};

/**
 * The gallery's list, asked for again by `retry`. Each outcome resets the selection: the first
 * category once loaded; no category and no open viewer after a failure.
 */
function useGalleryList(crmBase: string, { setSelectedCategory, setViewerIndex }: Selection) {
  const [state, setState] = useState<GalleryState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    loadGallery(crmBase, { signal: controller.signal, request: galleryApiRequest }).then(
      (content) => {
        setState({ status: 'loaded', ...content });
        setSelectedCategory(content.categories[0] ?? null);
      },
      () => {
        // Already logged: a failed request by the API client, a body of neither shape by loadGallery.
        if (controller.signal.aborted) return;
        setState({ status: 'error' });
        setSelectedCategory(null);
        setViewerIndex(null);
      },
    );
    return () => controller.abort();
  }, [crmBase, attempt, setSelectedCategory, setViewerIndex]);

  const retry = () => {
    setState({ status: 'loading' });
    setAttempt((value) => value + 1);
  };
  return { state, retry };
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-xl border border-red-300 bg-red-50 p-6 text-red-900">
      <p className="font-semibold">{GALLERY_LOAD_FAILED_MESSAGE}</p>
      <button type="button" onClick={onRetry} className="btn-secondary mt-4 border-red-800 text-red-900 hover:bg-red-100">
        {galleryMessages.tryAgain}
      </button>
    </div>
  );
}

type CategoryFilterProps = { categories: readonly string[]; selected: string | null; onSelect: (category: string) => void };

/** One toggle button per category; the pressed one is the category shown. */
function CategoryFilter({ categories, selected, onSelect }: CategoryFilterProps) {
  return (
    <div role="group" aria-label={galleryMessages.filterLabel} className="mb-8 flex flex-wrap gap-2">
      {categories.map((category) => {
        const isSelected = category === selected;
        return (
          <button
            key={category}
            type="button"
            aria-pressed={isSelected}
            onClick={() => onSelect(category)}
            className={
              isSelected
                ? 'min-h-11 rounded-full bg-brand-800 px-5 py-2 font-semibold text-white'
                : 'min-h-11 rounded-full border border-slate-300 bg-white px-5 py-2 font-semibold text-brand-800 hover:border-brand-800 hover:bg-brand-50'
            }
          >
            {category}
          </button>
        );
      })}
    </div>
  );
}

type GalleryGridProps = {
  items: readonly GalleryItem[];
  crmBase: string;
  onOpen: (item: GalleryItem) => (event: MouseEvent<HTMLButtonElement>) => void;
};

/** The tiles of the category shown, the first one loading ahead of the rest. */
function GalleryGrid({ items, crmBase, onOpen }: GalleryGridProps) {
  return (
    <ul className={gridClass} data-testid="gallery-grid">
      {items.map((item, index) => {
        const media = mediaOf(item, crmBase);
        return (
          <li key={item._id}>
            <GalleryTile
              item={item}
              media={media}
              srcSet={srcSetOf(media, crmBase) ?? posterSrcSetOf(media, crmBase)}
              onOpen={onOpen(item)}
              first={index === 0}
            />
          </li>
        );
      })}
    </ul>
  );
}

/** The gallery page's interactive part: load, category filter, grid and full-screen viewer. */
export function GalleryView({ crmBase = crmBaseUrl }: { crmBase?: string }) {
  const [selectedCategory, setSelectedCategory] = useState<string | null>(null);
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const { state, retry } = useGalleryList(crmBase, { setSelectedCategory, setViewerIndex });

  const items = useMemo(() => (state.status === 'loaded' ? state.items : []), [state]);
  const categories = state.status === 'loaded' ? state.categories : [];
  const visible = useMemo(() => items.filter((item) => item.category === selectedCategory), [items, selectedCategory]);

  const openItem = useCallback(
    (item: GalleryItem) => (event: MouseEvent<HTMLButtonElement>) => {
      openerRef.current = event.currentTarget;
      setViewerIndex(items.indexOf(item));
    },
    [items],
  );

  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'error') return <LoadFailed onRetry={retry} />;

  if (categories.length === 0) {
    return <p className="rounded-xl bg-slate-50 p-8 text-center text-lg text-slate-700">{galleryMessages.empty}</p>;
  }

  return (
    <>
      <CategoryFilter categories={categories} selected={selectedCategory} onSelect={setSelectedCategory} />

      {visible.length === 0 ? (
        <p className="rounded-xl bg-slate-50 p-8 text-center text-lg text-slate-700">
          {galleryMessages.emptyCategory(selectedCategory ?? '')}
        </p>
      ) : (
        <GalleryGrid items={visible} crmBase={crmBase} onOpen={openItem} />
      )}

      <GalleryViewer
        items={items}
        index={viewerIndex}
        crmBase={crmBase}
        onIndexChange={setViewerIndex}
        onClose={() => setViewerIndex(null)}
        returnFocusRef={openerRef}
      />
    </>
  );
}
