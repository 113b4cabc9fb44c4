import { NextResponse, type NextRequest } from 'next/server';
import { siteFirstPhotoPreload } from '@/server/gallery/site-first-photo-preload';

/** A browser acts on a Link preload header of a document only: a client-side navigation's RSC fetch gets none. */
function isDocumentRequest(request: NextRequest): boolean {
  const destination = request.headers.get('sec-fetch-dest');
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (destination === null || destination === 'document') &&
    !request.headers.has('rsc') &&
    !request.nextUrl.searchParams.has('_rsc')
  );
}

/**
 * GET /gallery as a document: the first photo's preload header (server/gallery/first-photo-preload.ts).
 * Only this path runs through here; security and cache headers are server.mjs's (decision 0006).
 */
export async function proxy(request: NextRequest) {
  const response = NextResponse.next();
  if (isDocumentRequest(request)) {
    const link = await siteFirstPhotoPreload.current();
    if (link) response.headers.append('Link', link);
  }
  return response;
}

export const config = { matcher: '/gallery' };
