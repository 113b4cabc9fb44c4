import type { Migration } from '@/server/base/migrations';

const COLUMNS = `id, enquiry_id, type, event_id, stage_change_id, photos_from, drying_visit_id, occurred_at, created_ms,
  status, attempts, next_attempt_ms, lease_owner, lease_until_ms, last_error, delivered_at`;

/**
 * Each change of a survey visit as it was made (`survey_appointment_changes`): booked, moved, cancelled
 * or missed ("no access"), with the window and SEQUENCE it left the visit at, and who made it. What the
 * CRM's `appointment.*` events tell (webhook_events gains the types, its CHECK rebuilt as in 0022, and
 * `appointment_change_id` in its one-each key) and what the digest counts. Visits booked before this
 * migration get their booking as it stands. The company's capacity and blocks set by its CRM
 * (`appointments.capacity`, `appointments.blocked`) keep the event's id, so a resent event applies once.
 */
export const appointmentChangesMigration: Migration = {
  id: '0033-appointment-changes',
  statements: [
    `CREATE TABLE survey_appointment_changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      appointment_id INTEGER NOT NULL REFERENCES survey_appointments (id),
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      action TEXT NOT NULL CHECK (action IN ('booked', 'moved', 'cancelled', 'no-access')),
      date TEXT NOT NULL,
      window TEXT NOT NULL,
      sequence INTEGER NOT NULL,
      made_by TEXT NOT NULL CHECK (made_by IN ('customer', 'staff', 'crm')),
      changed_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX survey_appointment_changes_enquiry ON survey_appointment_changes (enquiry_id)`,
    `CREATE INDEX survey_appointment_changes_time ON survey_appointment_changes (changed_ms)`,
    `INSERT INTO survey_appointment_changes (appointment_id, enquiry_id, action, date, window, sequence, made_by, changed_ms)
      SELECT id, enquiry_id, 'booked', date, window, sequence, booked_by, created_ms FROM survey_appointments ORDER BY id`,
    `ALTER TABLE survey_capacity ADD COLUMN event_id TEXT`,
    `CREATE UNIQUE INDEX survey_capacity_event ON survey_capacity (event_id)`,
    `ALTER TABLE survey_blocks ADD COLUMN event_id TEXT`,
    `CREATE UNIQUE INDEX survey_blocks_event ON survey_blocks (event_id)`,
    `CREATE TABLE webhook_events_next (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      type TEXT NOT NULL CHECK (type IN ('enquiry.received', 'enquiry.photos_added', 'claim.updated', 'claim.drying_recorded',
        'appointment.booked', 'appointment.moved', 'appointment.cancelled', 'appointment.no_access')),
      event_id TEXT NOT NULL,
      stage_change_id INTEGER REFERENCES claim_stage_changes (id),
      photos_from INTEGER,
      drying_visit_id INTEGER REFERENCES drying_visits (id),
      appointment_change_id INTEGER REFERENCES survey_appointment_changes (id),
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
      ON webhook_events (enquiry_id, type, coalesce(stage_change_id, 0), coalesce(photos_from, 0), coalesce(drying_visit_id, 0),
        coalesce(appointment_change_id, 0))`,
    `CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_ms)`,
  ],
};
