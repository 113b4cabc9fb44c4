import 'server-only';
// The server's own read of the CRM's public gallery list (the browser's GET {crm}/api/gallery/public, made by the server only to
// learn the first photo for a preload hint: server/gallery/first-photo-preload.ts). Bounded in time and
// size: a CRM that hangs or answers without end costs one slow request, never the server's memory.
import { galleryEndpoint } from '@/lib/gallery/load-gallery';
import { readCappedText } from '@/server/base/http';

const CRM_LIST_TIMEOUT_MS = 5_000;
const CRM_LIST_MAX_BYTES = 2 * 1024 * 1024;

/** The list's body as JSON; throws on a non-2xx answer, a redirect, a time-out, too large a body or bad JSON. */
export async function fetchCrmGalleryList(
  crmBase: string,
  limits: { timeoutMs: number; maxBytes: number } = { timeoutMs: CRM_LIST_TIMEOUT_MS, maxBytes: CRM_LIST_MAX_BYTES },
): Promise<unknown> {
  const response = await fetch(galleryEndpoint(crmBase), {
    headers: { Accept: 'application/json' },
    redirect: 'error',
    cache: 'no-store',
    signal: AbortSignal.timeout(limits.timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the CRM answered ${response.status} for the gallery list`);
  }
  return JSON.parse(await readCappedText(response, limits.maxBytes));
}
