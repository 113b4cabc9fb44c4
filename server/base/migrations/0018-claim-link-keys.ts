import type { Migration } from '@/server/base/migrations';

/**
 * A claim's signed links are tied to a key of their own, set when the enquiry is stored and changed
 * only to revoke them: the submission key names the photos' folder and moves when a re-send brings the
 * photos an enquiry lacked, which must not break the links already e-mailed. Existing enquiries take
 * their current submission key, so the links sent before this migration keep working.
 */
export const claimLinkKeysMigration: Migration = {
  id: '0018-claim-link-keys',
  statements: [`ALTER TABLE enquiries ADD COLUMN link_key TEXT`, `UPDATE enquiries SET link_key = submission_key`],
};
