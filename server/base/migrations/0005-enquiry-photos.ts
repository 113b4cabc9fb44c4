import type { Migration } from '@/server/base/migrations';

/**
 * The damage photos of an enquiry, one row per photo; the files live in
 * ENQUIRY_PHOTOS_DIR/<submission key>/. The key is given to each enquiry as it is stored, so the one
 * batch that stores it can find the new row again (its id is not known until then).
 */
export const enquiryPhotosMigration: Migration = {
  id: '0005-enquiry-photos',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN submission_key TEXT`,
    `CREATE UNIQUE INDEX enquiries_submission_key ON enquiries (submission_key)`,
    `CREATE TABLE enquiry_photos (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      position INTEGER NOT NULL,
      original_name TEXT NOT NULL,
      file_name TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      UNIQUE (enquiry_id, position)
    )`,
  ],
};
