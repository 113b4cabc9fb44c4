import type { Page } from './test';

// The enquiry draft the contact form keeps on the device (lib/contact-draft.ts), read from the page: a
// test waits for the form to have saved it before it reloads, instead of waiting for its save timer.

type SavedDraft = { fields: Record<string, string>; claimOpen: boolean };

/** The draft's fields as last saved in localStorage (lib/contact-draft.ts FIELDS_KEY), or null when none is kept. */
export const savedDraftFields = (page: Page): Promise<SavedDraft | null> =>
  page.evaluate(() => {
    const text = localStorage.getItem('homecare:enquiry-draft');
    return text ? (JSON.parse(text) as SavedDraft) : null;
  });

/** How many photos the draft keeps in IndexedDB (lib/contact-draft.ts PHOTOS_DB); 0 when it has none. */
export const savedDraftPhotos = (page: Page): Promise<number> =>
  page.evaluate(async () => {
    // Opened only once it exists: opening would create it, without the form's store.
    if (!(await indexedDB.databases()).some((db) => db.name === 'homecare-enquiry-draft')) return 0;
    return new Promise<number>((resolve) => {
      const open = indexedDB.open('homecare-enquiry-draft');
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('photos')) {
          db.close();
          return resolve(0);
        }
        const count = db.transaction('photos').objectStore('photos').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => {
          db.close();
          resolve(-1);
        };
      };
      open.onerror = () => resolve(-1);
    });
  });
