// The claims kept on the phone and what became of them, in IndexedDB: used by the service worker only.
// Its name and stores never change with a new version of the site, so a new worker sends what an old
// one kept.
import type { ClaimOutcome, KeptClaim } from '@/lib/offline/protocol';

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
export function keepClaim(claim: KeptClaim): Promise<void> {
  return inTransaction([CLAIMS], 'readwrite', (transaction) => {
    transaction.objectStore(CLAIMS).put(claim);
  });
}

/** The claim as it now stands (its photos sent ahead so far), unless it was settled meanwhile. */
export function updateClaim(claim: KeptClaim): Promise<void> {
  return inTransaction([CLAIMS], 'readwrite', (transaction) => {
    const store = transaction.objectStore(CLAIMS);
    const found = store.getKey(claim.enquiryKey);
    found.onsuccess = () => {
      if (found.result !== undefined) store.put(claim);
    };
  });
}

export function keptClaims(): Promise<KeptClaim[]> {
  return inTransaction([CLAIMS], 'readonly', (transaction) => all<KeptClaim>(transaction.objectStore(CLAIMS)));
}

/** The claim is over (sent or refused): its outcome replaces it, in one transaction. */
export function settleClaim(outcome: ClaimOutcome): Promise<void> {
  return inTransaction([CLAIMS, OUTCOMES], 'readwrite', (transaction) => {
    transaction.objectStore(CLAIMS).delete(outcome.enquiryKey);
    transaction.objectStore(OUTCOMES).put(outcome);
  });
}

export function claimOutcomes(): Promise<ClaimOutcome[]> {
  return inTransaction([OUTCOMES], 'readonly', (transaction) => all<ClaimOutcome>(transaction.objectStore(OUTCOMES)));
}

/** A page has shown these outcomes: they are forgotten. */
export function forgetOutcomes(keys: readonly string[]): Promise<void> {
  return inTransaction([OUTCOMES], 'readwrite', (transaction) => {
    for (const key of keys) transaction.objectStore(OUTCOMES).delete(key);
  });
}
