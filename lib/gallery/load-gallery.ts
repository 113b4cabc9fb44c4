import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { normaliseGalleryResponse, type GalleryContent } from './normalise';
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';
import { galleryMessages } from '@/content/gallery';

const GALLERY_FETCH_ERROR = galleryMessages.notOk;
export const GALLERY_LOAD_FAILED_MESSAGE = galleryMessages.loadFailed;

export function galleryEndpoint(crmBase: string): string {
  return `${trimTrailingSlashes(crmBase)}/api/gallery/public`;
}

/** A failed gallery load: the request's own failure as its cause, or a body of neither shape. */
class GalleryLoadError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'GalleryLoadError';
  }
}

/**
 * GET {crm}/api/gallery/public through the API client, which logs a failed request and a body of
 * neither shape; nobody else logs a failed load. A non-OK answer becomes the error 'Failed to fetch photos'.
 */
export async function loadGallery(
  crmBase: string,
  options: { signal?: AbortSignal; request?: typeof defaultApiRequest } = {},
): Promise<GalleryContent> {
  const request = options.request ?? defaultApiRequest;
  try {
    const { data } = await request(galleryEndpoint(crmBase), {
      signal: options.signal,
      failureMessage: GALLERY_FETCH_ERROR,
      expect: {
        read: normaliseGalleryResponse,
        message: 'Unexpected gallery response: neither an array nor an object with a data array',
        component: 'gallery',
      },
    });
    return data;
  } catch (error) {
    if (error instanceof ApiError && error.status !== undefined) throw new GalleryLoadError(GALLERY_FETCH_ERROR, { cause: error });
    throw new GalleryLoadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
