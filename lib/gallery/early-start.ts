// GalleryView's side of the early start (lib/gallery/early-start-script.ts): the list's response the
// inline script already asked for, taken once; every other request goes to the network as usual.
import { inBrowser } from '@/lib/browser';
import { createApiClient } from '@/lib/api-client';
import { EARLY_START_GLOBAL } from './early-start-constants';

type EarlyStart = { url: string; response: Promise<Response>; taken: boolean };

function earlyStartFor(url: string): EarlyStart | null {
  if (!inBrowser()) return null;
  const early = (window as unknown as Record<string, EarlyStart | undefined>)[EARLY_START_GLOBAL];
  return early && !early.taken && early.url === url ? early : null;
}

/** fetch, except that the first GET of the early-started URL is answered by the early request. */
const fetchTakingEarlyStart: typeof fetch = (input, init) => {
  const early = typeof input === 'string' && (init?.method ?? 'GET') === 'GET' ? earlyStartFor(input) : null;
  if (!early) return fetch(input, init);
  early.taken = true;
  const signal = init?.signal;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    early.response.then(resolve, reject);
  });
};

/** The API client for the gallery's list: logging, timeout and errors as for any call. */
export const galleryApiRequest = createApiClient(undefined, fetchTakingEarlyStart);
