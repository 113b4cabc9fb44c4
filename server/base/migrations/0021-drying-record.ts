import type { Migration } from '@/server/base/migrations';

/**
 * A claim's drying record (lib/drying.ts, server/claims/drying/record.ts): one row per visit, by the
 * CRM's `claim.drying_recorded` event (`event_id`, its `webhook-id`, unique: an event sent twice is one
 * visit) or the staff page; each visit's readings, one per location; and the machines, one row per
 * machine (its kind, model and the time it was switched on: `machine_key`), which a later visit updates
 * (switched off, a plug-in meter's kWh). Kept, exported and erased with the enquiry.
 */
export const dryingRecordMigration: Migration = {
  id: '0021-drying-record',
  statements: [
    `CREATE TABLE drying_visits (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      visit_at TEXT NOT NULL,
      visit_ms INTEGER NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('staff', 'crm')),
      event_id TEXT NOT NULL,
      recorded_at TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX drying_visits_event ON drying_visits (event_id)`,
    `CREATE INDEX drying_visits_enquiry ON drying_visits (enquiry_id, visit_ms)`,
    `CREATE TABLE drying_readings (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      visit_id INTEGER NOT NULL REFERENCES drying_visits (id),
      location TEXT NOT NULL,
      material TEXT NOT NULL,
      scale TEXT NOT NULL CHECK (scale IN ('wme', 'relative')),
      value REAL NOT NULL,
      goal REAL NOT NULL,
      temperature REAL,
      humidity REAL
    )`,
    `CREATE INDEX drying_readings_visit ON drying_readings (visit_id)`,
    `CREATE TABLE drying_equipment (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id),
      machine_key TEXT NOT NULL,
      kind TEXT NOT NULL,
      model TEXT NOT NULL,
      watts INTEGER NOT NULL,
      count INTEGER NOT NULL,
      on_at TEXT NOT NULL,
      off_at TEXT,
      kwh REAL,
      last_visit_ms INTEGER NOT NULL
    )`,
    `CREATE UNIQUE INDEX drying_equipment_machine ON drying_equipment (enquiry_id, machine_key)`,
  ],
};
