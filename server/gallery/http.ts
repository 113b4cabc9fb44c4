import 'server-only';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { isGalleryImageWidth } from '@/lib/gallery/responsive-image';
import { failure, toResponse } from '@/server/base/http';
import { parseRange } from './http-range';
import { isValidMediaKey } from './keys';
import { toPublicItem, type GalleryStore } from './store';

/** Public, read-only endpoints: any origin may read them, as it may the CRM's. */
const PUBLIC_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'X-Content-Type-Options': 'nosniff',
};

/** Media may change when an operator re-adds a file, so caches revalidate daily (ETag makes that cheap). */
const MEDIA_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
/** The list changes with `npm run gallery`: caches keep it, but ask every time (answered 304 when unchanged). */
const LIST_CACHE_CONTROL = 'public, no-cache';

function errorResponse(status: number, message: string, headers: Record<string, string> = {}) {
  return toResponse(failure(status, message, {}, { ...PUBLIC_HEADERS, 'Cache-Control': 'no-store', ...headers }));
}

function etagMatches(header: string | null, etag: string) {
  if (!header) return false;
  return header
    .split(',')
    .some((candidate) => candidate.trim() === '*' || candidate.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
}

/** GET /api/gallery/public: `{ success, data: [...] }` in the CRM's gallery item contract. */
export async function galleryListResponse(request: Request, store: GalleryStore): Promise<Response> {
  let items;
  try {
    items = (await store.listPublic()).map(toPublicItem);
  } catch (error) {
    console.error('[gallery] Could not read the built-in gallery:', error);
    return errorResponse(500, 'The gallery is unavailable');
  }
  const body = JSON.stringify({ success: true, data: items });
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const headers = { ...PUBLIC_HEADERS, 'Cache-Control': LIST_CACHE_CONTROL, ETag: etag };
  if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' } });
}

/** GET /api/gallery/image/{s3Key}: the file, with validators, and single byte ranges for video seeking. */
export async function galleryMediaResponse(request: Request, key: string, store: GalleryStore): Promise<Response> {
  if (!isValidMediaKey(key)) return errorResponse(400, 'Invalid media key');
  // `?w=` asks for one of the stored display sizes (lib/gallery/responsive-image.ts); nothing is resized here.
  const widthParameter = new URL(request.url).searchParams.get('w');
  const width = widthParameter === null ? undefined : Number(widthParameter);
  if (width !== undefined && !(/^\d{1,4}$/.test(widthParameter ?? '') && isGalleryImageWidth(width))) {
    return errorResponse(400, 'Unsupported width');
  }
  const acceptsWebp = /\bimage\/webp\b/i.test(request.headers.get('accept') ?? '');
  const media = await store.resolveMedia(key, { width, format: acceptsWebp ? 'webp' : 'fallback' });
  if (!media) return errorResponse(404, 'Media not found');

  const etag = `"${media.size.toString(36)}-${Math.floor(media.modified.getTime()).toString(36)}"`;
  const headers: Record<string, string> = {
    ...PUBLIC_HEADERS,
    'Content-Type': media.contentType,
    'Cache-Control': MEDIA_CACHE_CONTROL,
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': media.modified.toUTCString(),
    // The stored sizes of a photo come as WebP or as the original's format, by Accept.
    Vary: 'Accept',
    // A media file opened directly must not run anything.
    'Content-Security-Policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  };

  if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });

  const ifRange = request.headers.get('if-range');
  const range =
    ifRange && ifRange !== etag && ifRange !== headers['Last-Modified'] ? null : parseRange(request.headers.get('range'), media.size);
  if (range === 'unsatisfiable') {
    return errorResponse(416, 'Range not satisfiable', { 'Content-Range': `bytes */${media.size}`, 'Accept-Ranges': 'bytes' });
  }

  const start = range?.start ?? 0;
  const end = range?.end ?? media.size - 1;
  const length = media.size === 0 ? 0 : end - start + 1;
  const body =
    request.method === 'HEAD' || length === 0
      ? null
      : (Readable.toWeb(createReadStream(media.filePath, { start, end })) as unknown as ReadableStream<Uint8Array>);
  if (range) {
    return new Response(body, {
      status: 206,
      headers: { ...headers, 'Content-Length': String(length), 'Content-Range': `bytes ${start}-${end}/${media.size}` },
    });
  }
  return new Response(body, { status: 200, headers: { ...headers, 'Content-Length': String(length) } });
}
