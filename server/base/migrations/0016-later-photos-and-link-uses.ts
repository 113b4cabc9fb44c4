import type { Migration } from '@/server/base/migrations';

/**
 * Photos a customer adds later, from their claim's status page, reach the company in one follow-up per
 * batch: a 'photos' job with `photos_from`, the first position of its batch (none for the follow-up of
 * photos that came late with the enquiry itself, at most one per enquiry as before). The unique key
 * counts a missing batch as 0, so each batch is told exactly once. An enquiry that was not accepted
 * keeps no photos but counts those added later against the claim's room (`later_photos_unkept`), as
 * one that was would: the room left never reveals a verdict.
 * And each use of a claim's signed links, counted per minute: the status link opened, the staff page
 * opened or saved, photos added. Kept, exported and erased with the enquiry.
 */
export const laterPhotosAndLinkUsesMigration: Migration = {
  id: '0016-later-photos-and-link-uses',
  statements: [
    `ALTER TABLE enquiry_notifications ADD COLUMN photos_from INTEGER`,
    `DROP INDEX enquiry_notifications_one_each`,
    `CREATE UNIQUE INDEX enquiry_notifications_one_each
      ON enquiry_notifications (enquiry_id, kind, coalesce(stage_change_id, 0), coalesce(photos_from, 0))`,
    `ALTER TABLE enquiries ADD COLUMN later_photos_unkept INTEGER NOT NULL DEFAULT 0`,
    `CREATE TABLE claim_link_uses (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      link TEXT NOT NULL CHECK (link IN ('status', 'update')),
      use TEXT NOT NULL CHECK (use IN ('opened', 'saved', 'photos')),
      minute_ms INTEGER NOT NULL,
      uses INTEGER NOT NULL DEFAULT 1
    )`,
    `CREATE UNIQUE INDEX claim_link_uses_minute ON claim_link_uses (enquiry_id, link, use, minute_ms)`,
  ],
};
