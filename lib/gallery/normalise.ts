import type { GalleryItem } from './types';

/** Items without a category still appear in the grid, under this filter. */
const UNCATEGORISED = 'Other';

function text(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The list inside a gallery response: `{ data: [...] }` or the array itself, the two shapes the CRM responds with; null for anything else. */
function extractItems(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (isRecord(body) && Array.isArray(body.data)) return body.data;
  return null;
}

/**
 * One received item, or null when it must be discarded: no `_id`, no `title`, or none of
 * `imageUrl`, `s3Key` and `filename`. `tags` is always an array afterwards.
 */
function normaliseItem(raw: unknown): GalleryItem | null {
  if (!isRecord(raw)) return null;
  const id = text(raw._id);
  const title = text(raw.title);
  const imageUrl = typeof raw.imageUrl === 'string' && raw.imageUrl.trim() !== '' ? raw.imageUrl.trim() : undefined;
  const s3Key = typeof raw.s3Key === 'string' && raw.s3Key.trim() !== '' ? raw.s3Key.trim() : undefined;
  const filename = text(raw.filename);
  const posterUrl = typeof raw.posterUrl === 'string' && raw.posterUrl.trim() !== '' ? raw.posterUrl.trim() : undefined;
  if (!id || !title || (!imageUrl && !s3Key && !filename)) return null;
  const tags = Array.isArray(raw.tags) ? raw.tags.map(text).filter((tag): tag is string => tag !== undefined) : [];
  return {
    _id: id,
    title,
    category: text(raw.category) ?? UNCATEGORISED,
    description: text(raw.description) ?? '',
    tags,
    mimeType: text(raw.mimeType)?.toLowerCase() ?? '',
    ...(imageUrl ? { imageUrl } : {}),
    ...(s3Key ? { s3Key } : {}),
    ...(filename ? { filename } : {}),
    ...(posterUrl ? { posterUrl } : {}),
  };
}

/** The distinct categories in order of first appearance. */
function categoriesOf(items: readonly GalleryItem[]): string[] {
  return [...new Set(items.map((item) => item.category))];
}

export type GalleryContent = { items: GalleryItem[]; categories: string[] };

/** A whole response body to items and categories; null when the body has neither shape. */
export function normaliseGalleryResponse(body: unknown): GalleryContent | null {
  const rawItems = extractItems(body);
  if (!rawItems) return null;
  const seen = new Set<string>();
  const items: GalleryItem[] = [];
  for (const raw of rawItems) {
    const item = normaliseItem(raw);
    // A repeated _id would make two grid entries share one React key and one viewer position.
    if (item && !seen.has(item._id)) {
      seen.add(item._id);
      items.push(item);
    }
  }
  return { items, categories: categoriesOf(items) };
}
