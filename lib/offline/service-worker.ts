// The site's service worker, built by scripts/site/service-worker-build.ts into one classic script per
// build (never a module: Firefox ESR runs no module workers) with the list of what it keeps for a visitor
// with no signal. It does two jobs and nothing else:
// - pages: /contact, /insurers and the offline page, with the assets they need, answer a navigation
//   that cannot reach the site; every other navigation that fails gets the offline page. A response
//   from the network is never stored (no claim, staff, verification or API response, nor any page that
//   could carry personal data); only the build's own immutable assets are added as they are fetched.
//   The assets go only to a page served from the keep, or while the browser knows it has no network:
//   any other page gets them from the browser, with the code it compiled last time (decision 0064).
// - claims kept on the phone (lib/offline/kept-claims-store.ts), sent one at a time, by their enquiry
//   key so a send cut off halfway is finished by the next try and never doubled: on a Background Sync,
//   when any page of the site is opened or comes back online, when an open page asks again while claims
//   wait (browsers with no Background Sync), and when a new worker takes over. A claim
//   with several photos sends them ahead one request each (server/intake/kept-claim-photos.ts), so no
//   request on a weak signal carries them all (Chromium stops a sync after three minutes).
import { contactOutcome } from '@/lib/contact-outcome';
import { responseReason } from '@/lib/contact-response.mjs';
import { PHOTO_FIELD } from '@/lib/contact-fields';
import { sendDeadlineMs } from '@/lib/offline/send-deadline';
import { claimOutcomes, forgetOutcomes, keepClaim, keptClaims, settleClaim, updateClaim } from '@/lib/offline/kept-claims-store';
import {
  KEPT_CLAIM_HEADER,
  KEPT_CLAIM_HEADER_VALUE,
  OFFLINE_PAGE,
  STAGE_PHOTO_FIELD,
  STAGED_PHOTOS_FIELD,
  SYNC_TAG,
  tooOldToSend,
  type KeepResult,
  type KeptClaim,
  type PageMessage,
  type WorkerMessage,
} from '@/lib/offline/protocol';

/** What the build step writes before this script: the build's version and what is kept for offline use. */
export type OfflineManifest = { version: string; pages: string[]; assets: string[] };

// The worker's own types (the project's TypeScript library is the DOM's, not the worker's).
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  clientId: string;
  resultingClientId: string;
  respondWith(response: Promise<Response>): void;
};
type SyncEvent = ExtendableEvent & { tag: string };
type WindowClient = { postMessage(message: WorkerMessage): void };
type ExtendableMessageEvent = ExtendableEvent & { data: unknown; ports: readonly MessagePort[]; source: WindowClient | null };
type WorkerScope = {
  location: Location;
  registration: { sync?: { register(tag: string): Promise<void> } };
  clients: { claim(): Promise<void>; matchAll(options: { type: 'window' }): Promise<WindowClient[]> };
  skipWaiting(): Promise<void>;
  navigator: { onLine: boolean };
  addEventListener(type: string, listener: (event: never) => void): void;
  __OFFLINE_MANIFEST__: OfflineManifest;
};

const scope = self as unknown as WorkerScope;
const manifest = scope.__OFFLINE_MANIFEST__;
const CACHE_PREFIX = 'homecare-site-';
const CACHE_NAME = `${CACHE_PREFIX}${manifest.version}`;
const keptAssets = new Set(manifest.assets);

scope.addEventListener('install', (event: ExtendableEvent) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      // Pages from the server, not the HTTP cache: each is stored with its own headers, so the
      // hashes of its Content-Security-Policy still match its scripts when it is served from here.
      await cache.addAll([...manifest.pages.map((page) => new Request(page, { cache: 'reload' })), ...manifest.assets]);
      // Taking over at once reloads nothing: a half-filled form stays as it is.
      await scope.skipWaiting();
    })(),
  );
});

scope.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
      await scope.clients.claim();
      // Claims kept under the previous version are this version's to send.
      await sendAndTell();
    })(),
  );
});

function withoutTrailingSlash(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/**
 * The open pages this worker answered from its keep (no signal): their build assets come from the keep
 * too. A page from the network loads its own as the browser does, from its HTTP cache with the code it
 * compiled last time; the same script handed over by a worker is compiled again on every visit
 * (measured: some 400 ms more of blocking script on a return visit at a mid phone's speed). Lost when
 * the browser stops the worker, which it does not do while a page is loading.
 */
const pagesFromKeep = new Set<string>();

/**
 * A page from the network; with none, the kept copy of the same page, or the offline page. No navigation
 * preload: Firefox shows its own error page when a preload cannot connect, and never asks the worker.
 */
async function pageOrKeptCopy(event: FetchEvent): Promise<Response> {
  try {
    return await fetch(event.request);
  } catch {
    if (event.resultingClientId) {
      pagesFromKeep.add(event.resultingClientId);
      // Pages long closed: the oldest forgotten.
      if (pagesFromKeep.size > 50) pagesFromKeep.delete(pagesFromKeep.values().next().value!);
    }
    const cache = await caches.open(CACHE_NAME);
    const path = withoutTrailingSlash(new URL(event.request.url).pathname);
    const page = manifest.pages.includes(path) ? path : OFFLINE_PAGE;
    return (await cache.match(page)) ?? (await cache.match(OFFLINE_PAGE)) ?? Response.error();
  }
}

/** A build asset for a page from the keep: its name changes with its content, so a kept copy is always right. */
async function buildAsset(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE_NAME);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** A file from public/ the kept pages show: from the network, else the kept copy. */
async function publicFile(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await caches.match(request);
    if (kept) return kept;
    throw error;
  }
}

scope.addEventListener('fetch', (event: FetchEvent) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin) return;
  if (request.mode === 'navigate') event.respondWith(pageOrKeptCopy(event));
  else if (url.pathname.startsWith('/_next/static/')) {
    // A page from the network that loads a chunk later, once the phone knows it has no network.
    if (pagesFromKeep.has(event.clientId) || !scope.navigator.onLine) event.respondWith(buildAsset(request));
  } else if (keptAssets.has(url.pathname + url.search)) event.respondWith(publicFile(request));
});

type SendResult = 'settled' | 'later';
type Answer = { status: number; body: unknown };

const KEPT_HEADERS = { [KEPT_CLAIM_HEADER]: KEPT_CLAIM_HEADER_VALUE };

const photoBytes = (photos: readonly { blob: Blob }[]) => photos.reduce((sum, photo) => sum + photo.blob.size, 0);

/** One POST to the claim's endpoint; null when no answer came in time (no signal, or the answer lost on the way back). */
async function post(claim: KeptClaim, init: RequestInit, photos: readonly { blob: Blob }[]): Promise<Answer | null> {
  try {
    const response = await fetch(claim.endpoint, {
      ...init,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(sendDeadlineMs(photoBytes(photos))),
    });
    return { status: response.status, body: await response.json() };
  } catch {
    return null;
  }
}

/** Reasons that say nothing about the claim itself: it is tried again later. */
const TRY_LATER = new Set(['too-slow', 'rate-limited', 'busy', 'unavailable', 'photos-missing']);
const tryLater = (answer: Answer) => answer.status >= 500 || TRY_LATER.has(responseReason(answer.body) ?? '');

/**
 * A claim with more than one photo: each photo not yet sent ahead goes in a request of its own, its id
 * kept with the claim at once (a round cut off halfway resumes at the next photo); then the claim
 * itself, naming them. Resolves with the claim's own answer, or what stopped it.
 */
async function sendWithPhotosAhead(claim: KeptClaim): Promise<Answer | 'later'> {
  const staged = claim.photos.map((_, index) => claim.staged?.[index] ?? null);
  for (const [index, photo] of claim.photos.entries()) {
    if (staged[index]) continue;
    const body = new FormData();
    body.append(STAGE_PHOTO_FIELD, claim.enquiryKey);
    body.append(PHOTO_FIELD, photo.blob, photo.name);
    const answer = await post(claim, { method: 'POST', headers: KEPT_HEADERS, body }, [photo]);
    // No room on the site for photos sent ahead: the claim whole, its photos in its own body.
    if (answer && responseReason(answer.body) === 'send-whole') return sendWhole(claim);
    if (!answer || tryLater(answer)) return 'later';
    const id = (answer.body as { staged?: unknown } | null)?.staged;
    // A photo refused for what it is: the claim's answer (its message names the photo).
    if (typeof id !== 'string') return answer;
    staged[index] = id;
    await updateClaim({ ...claim, staged });
  }
  const answer = await post(
    claim,
    {
      method: 'POST',
      headers: { ...KEPT_HEADERS, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...claim.fields, [STAGED_PHOTOS_FIELD]: staged.join(',') }),
    },
    [],
  );
  if (!answer) return 'later';
  // The site no longer has them (expired, or restarted): all sent again next time.
  if (responseReason(answer.body) === 'photos-missing') await updateClaim({ ...claim, staged: [] });
  return answer;
}

/** The claim as the form would have sent it, without a reCAPTCHA token: JSON, or multipart with its one photo. */
async function sendWhole(claim: KeptClaim): Promise<Answer | 'later'> {
  let init: RequestInit;
  if (claim.photos.length === 0) {
    init = { method: 'POST', headers: { ...KEPT_HEADERS, 'Content-Type': 'application/json' }, body: JSON.stringify(claim.fields) };
  } else {
    const body = new FormData();
    for (const [name, value] of Object.entries(claim.fields)) body.append(name, value);
    for (const photo of claim.photos) body.append(PHOTO_FIELD, photo.blob, photo.name);
    init = { method: 'POST', headers: KEPT_HEADERS, body };
  }
  return (await post(claim, init, claim.photos)) ?? 'later';
}

async function sendClaim(claim: KeptClaim): Promise<SendResult> {
  let answer = claim.photos.length > 1 ? await sendWithPhotosAhead(claim) : await sendWhole(claim);
  // The site no longer had the photos sent ahead: once more at once, every photo again.
  if (answer !== 'later' && responseReason(answer.body) === 'photos-missing') answer = await sendWithPhotosAhead({ ...claim, staged: [] });
  if (answer === 'later' || tryLater(answer)) return 'later';
  const outcome = contactOutcome(answer, { sentPhotos: claim.photos.length > 0 });
  const at = Date.now();
  // The claim and its photos leave the phone now; a refused one's words stay a day to be corrected, its photos not at all.
  await settleClaim(
    outcome.kind === 'success'
      ? { kind: 'sent', enquiryKey: claim.enquiryKey, reference: outcome.reference, urgent: claim.urgent, at }
      : {
          kind: 'refused',
          enquiryKey: claim.enquiryKey,
          message: outcome.message,
          fieldErrors: outcome.fieldErrors,
          claim: { ...claim, photos: [], staged: [] },
          at,
        },
  );
  return 'settled';
}

/** Sends every kept claim in turn, stopping at the first that must wait; resolves with how many are left. */
async function sendKeptClaims(): Promise<number> {
  const now = Date.now();
  const kept = await keptClaims();
  // Unsent for too long: deleted with their photos, and the next page says so.
  const old = tooOldToSend(kept, now);
  for (const claim of old) await settleClaim({ kind: 'expired', enquiryKey: claim.enquiryKey, keptAt: claim.keptAt, at: now });
  const claims = kept.filter((claim) => !old.includes(claim)).sort((a, b) => a.keptAt - b.keptAt);
  for (const [index, claim] of claims.entries()) {
    if ((await sendClaim(claim)) === 'later') return claims.length - index;
  }
  return 0;
}

let sending: Promise<number> | null = null;

/** One round of sending at a time, whoever asks (a sync, a page, an update). */
function sendOnce(): Promise<number> {
  sending ??= sendKeptClaims().finally(() => {
    sending = null;
  });
  return sending;
}

/** Every open page told what has become of the kept claims, and how many still wait (an open page asks again later). */
async function tellPages(left: number) {
  const outcomes = await claimOutcomes();
  for (const page of await scope.clients.matchAll({ type: 'window' })) {
    if (outcomes.length > 0) page.postMessage({ type: 'outcomes', outcomes });
    page.postMessage({ type: 'waiting', left });
  }
}

/** A round of sending, then every open page told; resolves with how many are left. */
async function sendAndTell(): Promise<number> {
  const left = await sendOnce().catch(() => 1);
  await tellPages(left).catch(() => undefined);
  return left;
}

async function keep(claim: KeptClaim): Promise<KeepResult> {
  try {
    await keepClaim(claim);
  } catch (error) {
    return error instanceof DOMException && error.name === 'QuotaExceededError' ? 'quota' : 'unavailable';
  }
  await scope.registration.sync?.register(SYNC_TAG).catch(() => undefined);
  return 'kept';
}

scope.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as PageMessage;
  if (message?.type === 'keep') {
    event.waitUntil(
      (async () => {
        const result = await keep(message.claim);
        event.ports[0]?.postMessage({ type: 'keep-result', result } satisfies WorkerMessage);
        if (result === 'kept') await sendAndTell();
      })(),
    );
  } else if (message?.type === 'visit') {
    event.waitUntil(sendAndTell());
  } else if (message?.type === 'seen' && Array.isArray(message.keys)) {
    event.waitUntil(forgetOutcomes(message.keys.filter((key) => typeof key === 'string')).catch(() => undefined));
  }
});

scope.addEventListener('sync', (event: SyncEvent) => {
  if (event.tag !== SYNC_TAG) return;
  event.waitUntil(
    sendAndTell().then((left) => {
      // A rejected sync is tried again by the browser later, with the page closed.
      if (left > 0) throw new Error(`${left} kept claims wait for a signal`);
    }),
  );
});
