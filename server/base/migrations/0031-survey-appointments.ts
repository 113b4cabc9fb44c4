import type { Migration } from '@/server/base/migrations';

/**
 * Surveys booked by the homeowner on the status page (server/claims/survey-booking.ts): the company's
 * capacity per window from a date on (`survey_capacity`, the latest that applies wins; none: 2), the
 * days and windows it blocks (`survey_blocks`), and each appointment (`survey_appointments`): its window,
 * its iCalendar UID for its whole life and the SEQUENCE its changes raise. A claim has at most one
 * booked appointment (a partial unique index), and a form token books once.
 */
export const surveyAppointmentsMigration: Migration = {
  id: '0031-survey-appointments',
  statements: [
    `CREATE TABLE survey_capacity (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      from_date TEXT NOT NULL,
      window TEXT,
      capacity INTEGER NOT NULL,
      source TEXT NOT NULL,
      set_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX survey_capacity_from ON survey_capacity (from_date)`,
    `CREATE TABLE survey_blocks (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      date TEXT NOT NULL,
      window TEXT,
      reason TEXT NOT NULL,
      source TEXT NOT NULL,
      created_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX survey_blocks_date ON survey_blocks (date)`,
    `CREATE TABLE survey_appointments (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
      uid TEXT NOT NULL,
      date TEXT NOT NULL,
      window TEXT NOT NULL,
      status TEXT NOT NULL,
      sequence INTEGER NOT NULL DEFAULT 0,
      moves INTEGER NOT NULL DEFAULT 0,
      booked_by TEXT NOT NULL,
      form_token TEXT,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL
    )`,
    `CREATE UNIQUE INDEX survey_appointments_booked ON survey_appointments (enquiry_id) WHERE status = 'booked'`,
    `CREATE UNIQUE INDEX survey_appointments_form_token ON survey_appointments (form_token)`,
    `CREATE INDEX survey_appointments_window ON survey_appointments (date, window, status)`,
  ],
};
