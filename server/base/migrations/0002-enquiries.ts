import type { Migration } from '@/server/base/migrations';

export const enquiriesMigration: Migration = {
  id: '0002-enquiries',
  statements: [
    `CREATE TABLE enquiries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      received_at TEXT NOT NULL,
      received_ms INTEGER NOT NULL,
      name TEXT NOT NULL,
      email TEXT NOT NULL,
      phone TEXT,
      subject TEXT NOT NULL,
      message TEXT NOT NULL,
      client_address TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      disposition TEXT NOT NULL CHECK (disposition IN ('accepted', 'spam', 'suspect')),
      verification TEXT NOT NULL CHECK (verification IN ('not-configured', 'verified', 'unverified', 'low-score', 'honeypot')),
      recaptcha_score REAL,
      verification_detail TEXT
    )`,
    `CREATE INDEX enquiries_received_ms ON enquiries (received_ms)`,
    `CREATE INDEX enquiries_content_hash ON enquiries (content_hash, received_ms)`,
    `CREATE TABLE enquiry_notifications (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER NOT NULL UNIQUE REFERENCES enquiries (id),
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      sent_at TEXT,
      message_id TEXT
    )`,
    `CREATE INDEX enquiry_notifications_due ON enquiry_notifications (status, next_attempt_ms)`,
  ],
};
