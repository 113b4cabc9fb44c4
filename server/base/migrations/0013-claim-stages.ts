import type { Migration } from '@/server/base/migrations';

/**
 * Where a claim's repair stands (lib/claim-stages.ts): one row per change of stage, by the company's
 * staff page or its CRM. An enquiry with none is at `received` since it arrived. `event_id` is the
 * CRM event's `webhook-id`, unique, so an event sent twice is applied once.
 * And the site's own secrets, made here at random: `claim-links` signs the links to a claim's status
 * and staff pages (server/claims/claim-links.ts); a new value revokes every link at once.
 */
export const claimStagesMigration: Migration = {
  id: '0013-claim-stages',
  statements: [
    `CREATE TABLE claim_stage_changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      stage TEXT NOT NULL,
      waiting_on TEXT,
      next_date TEXT,
      note TEXT,
      tell_customer INTEGER NOT NULL DEFAULT 1,
      source TEXT NOT NULL,
      event_id TEXT,
      changed_at TEXT NOT NULL,
      changed_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX claim_stage_changes_enquiry ON claim_stage_changes (enquiry_id, changed_ms)`,
    `CREATE UNIQUE INDEX claim_stage_changes_event ON claim_stage_changes (event_id)`,
    `CREATE TABLE site_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)`,
    `INSERT INTO site_secrets (name, value) VALUES ('claim-links', randomblob(32))`,
  ],
};
