import type { Migration } from '@/server/base/migrations';

/**
 * The e-mails of portfolio links people asked for on /insurers (server/portfolio/link-request.ts): one
 * job per e-mail, leased like the outbox's by its own worker of the runner. A job holds only whom it is
 * for; the address and the link are read from the person when it is sent, so a person erased or revoked
 * meanwhile is sent nothing.
 */
export const portfolioLinkMailsMigration: Migration = {
  id: '0027-portfolio-link-mails',
  statements: [
    `CREATE TABLE portfolio_link_mails (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      person_id INTEGER NOT NULL REFERENCES organisation_people (id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      created_ms INTEGER NOT NULL,
      sent_at TEXT,
      message_id TEXT
    )`,
    `CREATE INDEX portfolio_link_mails_due ON portfolio_link_mails (status, next_attempt_ms)`,
    `CREATE INDEX portfolio_link_mails_person ON portfolio_link_mails (person_id)`,
  ],
};
