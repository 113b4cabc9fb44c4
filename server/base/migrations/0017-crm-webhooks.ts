import type { Migration } from '@/server/base/migrations';

/**
 * The company's CRM told of each enquiry by signed webhooks (server/crm/webhooks.ts): one row per
 * event, written in the same batch as what it tells of (the enquiry, a batch of photos added later, a
 * change of stage made on the site), delivered by its own worker with its own retries, so the CRM being
 * down never holds back an e-mail. `event_id` is the event's `webhook-id`, the same on every attempt
 * and every resend; the unique key makes each event once. And `photo-links`, the secret that signs the
 * links to an enquiry's photos in its events (server/crm/photo-links.ts).
 */
export const crmWebhooksMigration: Migration = {
  id: '0017-crm-webhooks',
  statements: [
    `CREATE TABLE webhook_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      type TEXT NOT NULL CHECK (type IN ('enquiry.received', 'enquiry.photos_added', 'claim.updated')),
      event_id TEXT NOT NULL,
      stage_change_id INTEGER REFERENCES claim_stage_changes (id),
      photos_from INTEGER,
      occurred_at TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      delivered_at TEXT
    )`,
    `CREATE UNIQUE INDEX webhook_events_event_id ON webhook_events (event_id)`,
    `CREATE UNIQUE INDEX webhook_events_one_each
      ON webhook_events (enquiry_id, type, coalesce(stage_change_id, 0), coalesce(photos_from, 0))`,
    `CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_ms)`,
    `INSERT INTO site_secrets (name, value) VALUES ('photo-links', randomblob(32))`,
  ],
};
