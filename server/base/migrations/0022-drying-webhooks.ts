import type { Migration } from '@/server/base/migrations';

const COLUMNS = `id, enquiry_id, type, event_id, stage_change_id, photos_from, occurred_at, created_ms, status,
  attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, delivered_at`;

/**
 * The CRM told of a drying visit recorded on the site's staff page (`claim.drying_recorded`,
 * server/crm/webhooks.ts): webhook_events gains the event type (its CHECK rebuilt, so the table is
 * copied, its ids kept) and `drying_visit_id`, the visit an event tells of, in its one-each key.
 */
export const dryingWebhooksMigration: Migration = {
  id: '0022-drying-webhooks',
  statements: [
    `CREATE TABLE webhook_events_next (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      type TEXT NOT NULL CHECK (type IN ('enquiry.received', 'enquiry.photos_added', 'claim.updated', 'claim.drying_recorded')),
      event_id TEXT NOT NULL,
      stage_change_id INTEGER REFERENCES claim_stage_changes (id),
      photos_from INTEGER,
      drying_visit_id INTEGER REFERENCES drying_visits (id),
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
    `INSERT INTO webhook_events_next (${COLUMNS}) SELECT ${COLUMNS} FROM webhook_events`,
    `DROP TABLE webhook_events`,
    `ALTER TABLE webhook_events_next RENAME TO webhook_events`,
    `CREATE UNIQUE INDEX webhook_events_event_id ON webhook_events (event_id)`,
    `CREATE UNIQUE INDEX webhook_events_one_each
      ON webhook_events (enquiry_id, type, coalesce(stage_change_id, 0), coalesce(photos_from, 0), coalesce(drying_visit_id, 0))`,
    `CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_ms)`,
  ],
};
