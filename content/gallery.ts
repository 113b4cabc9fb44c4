/** The gallery page's copy and every message the gallery shows: loading, load failure, empty category, viewer labels. */
export const galleryPage = {
  title: 'Gallery',
  eyebrow: 'Our work',
  intro:
    'Photographs and short videos of repairs our own tradesmen have carried out for homeowners and insurers across Glasgow and the central belt. Choose a category, then select any item to see it full screen.',
  regionLabel: 'Gallery',
} as const;

export const galleryMessages = {
  loadFailed: 'Failed to load gallery photos. Please try again later.',
  notOk: 'Failed to fetch photos',
  empty: 'No media available in the gallery yet.',
  emptyCategory: (category: string) => `No media found in "${category}" category`,
  noMedia: 'No Media',
  video: 'Video',
  tryAgain: 'Try again',
  filterLabel: 'Filter by category',
  closeViewer: 'Close viewer',
  previousItem: 'Previous item',
  nextItem: 'Next item',
  tagsLabel: 'Tags',
} as const;
