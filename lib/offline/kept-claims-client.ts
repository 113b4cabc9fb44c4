// The pages' side of the claims kept on the phone: registering the service worker, handing it a claim
// that cannot be sent now, and hearing what became of the kept ones. Only messages: the worker alone
// touches the kept claims (lib/offline/service-worker.ts).
import {
  isWorkerMessage,
  SERVICE_WORKER_URL,
  type ClaimOutcome,
  type KeepResult,
  type KeptClaim,
  type PageMessage,
} from '@/lib/offline/protocol';

const KEEP_TIMEOUT_MS = 10_000;
const ASK_AGAIN_FIRST_MS = 5_000;
const ASK_AGAIN_MAX_MS = 120_000;
/** Room left over beyond the claim itself: IndexedDB's own bookkeeping, and the site's cached pages. */
const QUOTA_MARGIN_BYTES = 1_000_000;

function claimBytes(claim: KeptClaim): number {
  return claim.photos.reduce((total, photo) => total + photo.blob.size, JSON.stringify(claim.fields).length);
}

/** Whether the phone says it has no room for the claim (unknown counts as room: the write itself is the last word). */
async function lacksRoomFor(claim: KeptClaim): Promise<boolean> {
  try {
    const { quota, usage } = await navigator.storage.estimate();
    return quota !== undefined && usage !== undefined && quota - usage < claimBytes(claim) + QUOTA_MARGIN_BYTES;
  } catch {
    return false;
  }
}

/** Gives the claim to the service worker to keep and send when it can: 'kept', 'quota' (no room), or 'unavailable' (no worker in charge of this page). */
export async function keepClaimOnPhone(claim: KeptClaim): Promise<KeepResult> {
  const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!worker) return 'unavailable';
  if (await lacksRoomFor(claim)) return 'quota';
  // Asked once there is something worth keeping; a phone may refuse, and the claim is kept either way.
  void navigator.storage?.persist?.().catch(() => false);
  return new Promise<KeepResult>((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve('unavailable'), KEEP_TIMEOUT_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(isWorkerMessage(event.data) && event.data.type === 'keep-result' ? event.data.result : 'unavailable');
    };
    worker.postMessage({ type: 'keep', claim } satisfies PageMessage, [channel.port2]);
  });
}

function tellWorker(message: PageMessage) {
  void navigator.serviceWorker.ready.then((registration) =>
    (navigator.serviceWorker.controller ?? registration.active)?.postMessage(message),
  );
}

/**
 * Registers the site's service worker (from the page's load on: it never competes with the first paint)
 * and asks it to send what it keeps now, whenever the browser is back online, and again while claims
 * wait; `onOutcomes` hears
 * what became of kept claims, and `seen` lets the worker forget them once shown.
 */
export function startKeptClaims(onOutcomes: (outcomes: ClaimOutcome[]) => void): { seen: (keys: string[]) => void; stop: () => void } {
  const container = navigator.serviceWorker;
  const visit = () => tellWorker({ type: 'visit' });
  // While claims wait and this page is open, it asks the worker to try again, sooner at first: the only
  // retry Firefox and Safari have (no Background Sync), and a connection that lost one answer is
  // usually back within seconds.
  let failedRounds = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const askAgainLater = (left: number) => {
    clearTimeout(retryTimer);
    if (left === 0) {
      failedRounds = 0;
      return;
    }
    retryTimer = setTimeout(visit, Math.min(ASK_AGAIN_MAX_MS, ASK_AGAIN_FIRST_MS * 2 ** failedRounds));
    failedRounds += 1;
  };
  const listener = (event: MessageEvent) => {
    if (!isWorkerMessage(event.data)) return;
    if (event.data.type === 'outcomes') onOutcomes(event.data.outcomes);
    else if (event.data.type === 'waiting') askAgainLater(event.data.left);
  };
  container.addEventListener('message', listener);
  window.addEventListener('online', visit);
  // A worker that cannot be registered (a browser that blocks it, a test build) leaves the site as it is.
  container
    .register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' })
    .then(visit)
    .catch(() => undefined);
  return {
    seen: (keys) => tellWorker({ type: 'seen', keys }),
    stop: () => {
      container.removeEventListener('message', listener);
      window.removeEventListener('online', visit);
      clearTimeout(retryTimer);
    },
  };
}
