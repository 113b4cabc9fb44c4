import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { normaliseGalleryResponse, type GalleryContent } from './normalise';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';
import { galleryMessages } from '@/content/gallery';

export const GALLERY_FETCH_ERROR = galleryMessages.notOk;
export const GALLERY_LOAD_FAILED_MESSAGE = galleryMessages.loadFailed;

export function galleryEndpoint(crmBase: string): string {
  return `${trimTrailingSlashes(crmBase)}/api/gallery/public`;
}

/** A failed gallery load; `logged` says whether the API client already reported it. */
export class GalleryLoadError extends Error {
  readonly logged: boolean;
  constructor(message: string, options: { cause?: unknown; logged: boolean }) {
    super(message, { cause: options.cause });
    this.name = 'GalleryLoadError';
    this.logged = options.logged;
  }
}

/**
 * GET {crm}/api/gallery/public, the CRM's public list, through the API client (which logs failed requests).
 * A non-OK answer becomes the error 'Failed to fetch photos'.
 */
export async function loadGallery(
  crmBase: string,
  options: { signal?: AbortSignal; request?: typeof defaultApiRequest } = {},
): Promise<GalleryContent> {
  const request = options.request ?? defaultApiRequest;
  let body: unknown;
  try {
    ({ data: body } = await request<unknown>(galleryEndpoint(crmBase), { signal: options.signal }));
  } catch (error) {
    if (error instanceof ApiError && error.status !== undefined) {
      throw new GalleryLoadError(GALLERY_FETCH_ERROR, { cause: error, logged: true });
    }
    throw new GalleryLoadError(error instanceof Error ? error.message : String(error), { cause: error, logged: error instanceof ApiError });
  }
  const content = normaliseGalleryResponse(body);
  if (!content) {
    throw new GalleryLoadError('Unexpected gallery response: neither an array nor an object with a data array', { logged: false });
  }
  return content;
}
