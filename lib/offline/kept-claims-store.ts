// The claims kept on the phone and what became of them, in IndexedDB: used by the service worker only.
// Its name and stores never change with a new version of the site, so a new worker sends what an old
// one kept.
import { outcomesToShow, type ClaimOutcome, type KeptClaim, type KeptPhoto } from '@/lib/offline/protocol';

// Photos are stored as bytes, not Blobs: WebKit refuses a Blob in IndexedDB in a private window.
type StoredPhoto = { name: string; type: string; bytes: ArrayBuffer };
type StoredClaim = Omit<KeptClaim, 'photos'> & { photos: StoredPhoto[] };
type RefusedOutcome = Extract<ClaimOutcome, { kind: 'refused' }>;
type StoredOutcome = Exclude<ClaimOutcome, { kind: 'refused' }> | (Omit<RefusedOutcome, 'claim'> & { claim: StoredClaim });

async function stored(claim: KeptClaim): Promise<StoredClaim> {
  const photos = await Promise.all(claim.photos.map(async ({ name, type, blob }) => ({ name, type, bytes: await blob.arrayBuffer() })));
  return { ...claim, photos };
}

function kept(claim: StoredClaim): KeptClaim {
  const photos: KeptPhoto[] = claim.photos.map(({ name, type, bytes }) => ({ name, type, blob: new Blob([bytes], { type }) }));
  return { ...claim, photos };
}

async function storedOutcome(outcome: ClaimOutcome): Promise<StoredOutcome> {
  return outcome.kind === 'refused' ? { ...outcome, claim: await stored(outcome.claim) } : outcome;
}

const outcomeOf = (outcome: StoredOutcome): ClaimOutcome =>
  outcome.kind === 'refused' ? { ...outcome, claim: kept(outcome.claim) } : outcome;

const DATABASE = 'homecare-kept-claims';
const CLAIMS = 'claims';
const OUTCOMES = 'outcomes';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(CLAIMS, { keyPath: 'enquiryKey' });
      request.result.createObjectStore(OUTCOMES, { keyPath: 'enquiryKey' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('The kept claims are open in an older version of the site'));
  });
}

/** One transaction over `stores`; resolves with what `work` returns once it has committed. */
async function inTransaction<T>(stores: string[], mode: IDBTransactionMode, work: (transaction: IDBTransaction) => T): Promise<Awaited<T>> {
  const db = await open();
  try {
    const transaction = db.transaction(stores, mode);
    const result = work(transaction);
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error ?? new Error('aborted'));
    });
    return await result;
  } finally {
    db.close();
  }
}

function all<T>(store: IDBObjectStore): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const request = store.getAll();
    request.onsuccess = () => resolve(request.result as T[]);
    request.onerror = () => reject(request.error);
  });
}

/** Keeps a claim (the same key again replaces it: the visitor's latest words). Rejects with the storage's error, QuotaExceededError among them. */
export async function keepClaim(claim: KeptClaim): Promise<void> {
  const record = await stored(claim);
  return inTransaction([CLAIMS], 'readwrite', (transaction) => {
    transaction.objectStore(CLAIMS).put(record);
  });
}

/** The claim as it now stands (its photos sent ahead so far), unless it was settled meanwhile. */
export async function updateClaim(claim: KeptClaim): Promise<void> {
  const record = await stored(claim);
  return inTransaction([CLAIMS], 'readwrite', (transaction) => {
    const store = transaction.objectStore(CLAIMS);
    const found = store.getKey(claim.enquiryKey);
    found.onsuccess = () => {
      if (found.result !== undefined) store.put(record);
    };
  });
}

export async function keptClaims(): Promise<KeptClaim[]> {
  const records = await inTransaction([CLAIMS], 'readonly', (transaction) => all<StoredClaim>(transaction.objectStore(CLAIMS)));
  return records.map(kept);
}

/** The claim is over (sent or refused): its outcome replaces it, in one transaction. */
export async function settleClaim(outcome: ClaimOutcome): Promise<void> {
  const record = await storedOutcome(outcome);
  return inTransaction([CLAIMS, OUTCOMES], 'readwrite', (transaction) => {
    transaction.objectStore(CLAIMS).delete(outcome.enquiryKey);
    transaction.objectStore(OUTCOMES).put(record);
  });
}

/** The outcomes still to show; a refused claim's words older than they are kept for are deleted here (its notice stays). */
export async function claimOutcomes(now = Date.now()): Promise<ClaimOutcome[]> {
  const records = await inTransaction([OUTCOMES], 'readonly', (transaction) => all<StoredOutcome>(transaction.objectStore(OUTCOMES)));
  const outcomes = records.map(outcomeOf);
  const shown = outcomesToShow(outcomes, now);
  const dropped = shown.filter((outcome, index) => outcome !== outcomes[index]);
  if (dropped.length > 0) {
    const stored = await Promise.all(dropped.map(storedOutcome));
    await inTransaction([OUTCOMES], 'readwrite', (transaction) => {
      for (const record of stored) transaction.objectStore(OUTCOMES).put(record);
    });
  }
  return shown;
}

/** A page has shown these outcomes: they are forgotten. */
export function forgetOutcomes(keys: readonly string[]): Promise<void> {
  return inTransaction([OUTCOMES], 'readwrite', (transaction) => {
    for (const key of keys) transaction.objectStore(OUTCOMES).delete(key);
  });
}
