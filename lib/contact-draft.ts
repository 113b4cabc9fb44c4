/**
 * The enquiry a visitor has started, kept on their own device so that a reload, a closed tab or a
 * crashed browser does not lose it: the typed fields in localStorage, the photos (as the form prepared
 * them: downscaled, without their metadata) in IndexedDB, each for DRAFT_LIFETIME_MS. Nothing of it
 * leaves the device until the visitor sends the form. A storage that is full, refused (private
 * browsing) or missing only means there is no draft: every function here fails quietly.
 */
import { browserLocalStorage, inBrowser } from '@/lib/browser';
import { ENQUIRY_FIELDS, type EnquiryFields } from '@/lib/contact-fields';
import { isEnquiryKey } from '@/lib/enquiry-key';

const DRAFT_LIFETIME_MS = 24 * 60 * 60_000;
const FIELDS_KEY = 'homecare:enquiry-draft';
const PHOTOS_DB = 'homecare-enquiry-draft';
const PHOTOS_STORE = 'photos';
/** Longer than any field may be: a stored value beyond it is not ours. */
const MAX_STORED_CHARACTERS = 10_000;

/** `enquiryKey`: the enquiry's key (lib/enquiry-key.ts), so a send after a reload is still the same enquiry. */
export type DraftFields = { savedAt: number; fields: EnquiryFields; claimOpen: boolean; enquiryKey?: string };
export type DraftPhoto = { id: number; name: string; type: string; blob: Blob; savedAt: number };

const storage = browserLocalStorage;

/** Whether anything was typed: an empty form is not worth keeping. */
export function hasContent(fields: EnquiryFields): boolean {
  return ENQUIRY_FIELDS.some((field) => fields[field].trim() !== '');
}

export function saveDraftFields(draft: DraftFields): void {
  try {
    if (hasContent(draft.fields)) storage()?.setItem(FIELDS_KEY, JSON.stringify(draft));
    else storage()?.removeItem(FIELDS_KEY);
  } catch {
    // Full or refused: no draft.
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

function stringsOf<K extends string>(fields: readonly K[], raw: unknown): Record<K, string> | null {
  if (raw === null || typeof raw !== 'object') return null;
  const record = raw as Record<string, unknown>;
  const out = {} as Record<K, string>;
  for (const field of fields) {
    const value = record[field] ?? '';
    if (typeof value !== 'string' || value.length > MAX_STORED_CHARACTERS) return null;
    out[field] = value;
  }
  return out;
}

/** The kept fields, unless there are none, they are older than DRAFT_LIFETIME_MS, or they are not the form's. */
export function loadDraftFields(now = Date.now()): DraftFields | null {
  let parsed: unknown;
  try {
    const text = storage()?.getItem(FIELDS_KEY);
    if (!text) return null;
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  // A draft kept before the fields were one record held them in two, `values` and `claim`.
  const kept = record.fields ?? (isRecord(record.values) && isRecord(record.claim) ? { ...record.values, ...record.claim } : undefined);
  const fields = stringsOf(ENQUIRY_FIELDS, kept);
  const savedAt = record.savedAt;
  if (!fields || typeof savedAt !== 'number' || now - savedAt > DRAFT_LIFETIME_MS || savedAt > now + 60_000) {
    clearDraftFields();
    return null;
  }
  return {
    savedAt,
    fields,
    claimOpen: record.claimOpen === true,
    ...(isEnquiryKey(record.enquiryKey) ? { enquiryKey: record.enquiryKey } : {}),
  };
}

function clearDraftFields(): void {
  try {
    storage()?.removeItem(FIELDS_KEY);
  } catch {
    // Nothing to clear.
  }
}

function openPhotos(): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    try {
      if (!inBrowser() || typeof indexedDB === 'undefined') return resolve(null);
      const request = indexedDB.open(PHOTOS_DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(PHOTOS_STORE, { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

async function withPhotos<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const db = await openPhotos();
  if (!db) return undefined;
  return new Promise((resolve) => {
    try {
      const transaction = db.transaction(PHOTOS_STORE, mode);
      const request = work(transaction.objectStore(PHOTOS_STORE));
      transaction.oncomplete = () => {
        db.close();
        resolve(request ? request.result : undefined);
      };
      transaction.onerror = transaction.onabort = () => {
        db.close();
        resolve(undefined);
      };
    } catch {
      db.close();
      resolve(undefined);
    }
  });
}

export async function saveDraftPhoto(photo: DraftPhoto): Promise<void> {
  await withPhotos('readwrite', (store) => {
    store.put(photo);
  });
}

export async function removeDraftPhoto(id: number): Promise<void> {
  await withPhotos('readwrite', (store) => {
    store.delete(id);
  });
}

/** The kept photos in the order they were chosen; expired ones are removed. */
export async function loadDraftPhotos(now = Date.now()): Promise<DraftPhoto[]> {
  const all = ((await withPhotos('readonly', (store) => store.getAll())) ?? []) as DraftPhoto[];
  const fresh = all.filter((photo) => photo.blob instanceof Blob && now - photo.savedAt <= DRAFT_LIFETIME_MS);
  if (fresh.length < all.length) await clearDraftPhotos();
  if (fresh.length < all.length) for (const photo of fresh) await saveDraftPhoto(photo);
  return fresh.sort((a, b) => a.id - b.id);
}

async function clearDraftPhotos(): Promise<void> {
  await withPhotos('readwrite', (store) => {
    store.clear();
  });
}

/** Forgets the whole draft: after the enquiry was sent, or when the visitor clears the form. */
export function clearDraft(): Promise<void> {
  clearDraftFields();
  return clearDraftPhotos();
}
