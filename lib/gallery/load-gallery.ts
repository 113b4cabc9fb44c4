import { apiRequest as defaultApiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { logger as defaultLogger, type Logger } from '@/lib/logger';
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
 * GET {crm}/api/gallery/public through the API client, which logs a failed request; a body of
 * neither shape, which the client cannot judge, is logged here. A non-OK answer becomes the error
 * 'Failed to fetch photos'. Nobody else logs a failed load.
 */
export async function loadGallery(
  crmBase: string,
  options: { signal?: AbortSignal; request?: typeof defaultApiRequest; log?: Logger } = {},
): Promise<GalleryContent> {
  const request = options.request ?? defaultApiRequest;
  let body: unknown;
  try {
    ({ data: body } = await request<unknown>(galleryEndpoint(crmBase), { signal: options.signal, failureMessage: GALLERY_FETCH_ERROR }));
  } catch (error) {
    if (error instanceof ApiError && error.status !== undefined) throw new GalleryLoadError(GALLERY_FETCH_ERROR, { cause: error });
    throw new GalleryLoadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const content = normaliseGalleryResponse(body);
  if (!content) {
    const error = new GalleryLoadError('Unexpected gallery response: neither an array nor an object with a data array');
    if (!options.signal?.aborted) {
      (options.log ?? defaultLogger).error(error.message, { category: 'client', error, metadata: { component: 'gallery' } });
    }
    throw error;
  }
  return content;
}
