import type { Migration } from '@/server/base/migrations';

/**
 * A link asked for on /insurers no longer makes a person (server/portfolio/link-request.ts): the request
 * is a job holding the address as typed (`portfolio_link_mails`), and the mail worker decides what it
 * gets; a link e-mailed is for that address at its organisation (`portfolio_links.email`), and the
 * person row is made when it is first opened. A link printed by the operator still names its person.
 *
 * Both tables are made again (SQLite cannot loosen NOT NULL): each job keeps its person's address, each
 * link its person and organisation. `link_sent_ms` goes: the hour between two e-mails to a mailbox is
 * read from the jobs sent.
 */
export const linkRequestsWithoutPeopleMigration: Migration = {
  id: '0030-link-requests-without-people',
  statements: [
    `CREATE TABLE portfolio_link_mails_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL,
      mailbox TEXT NOT NULL,
      domain TEXT NOT NULL,
      organisation_id INTEGER REFERENCES organisations (id) ON DELETE CASCADE,
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
    // The mailbox as counted (a +tag off, the domain without a trailing dot), as the request does.
    `INSERT INTO portfolio_link_mails_new (id, email, mailbox, domain, organisation_id, status, attempts, next_attempt_ms,
        lease_owner, lease_until_ms, last_error, created_ms, sent_at, message_id)
      SELECT m.id, p.email,
        CASE WHEN instr(substr(p.email_key, 1, instr(p.email_key, '@') - 1), '+') > 0
          THEN substr(p.email_key, 1, instr(p.email_key, '+') - 1) || substr(p.email_key, instr(p.email_key, '@'))
          ELSE p.email_key END,
        rtrim(substr(p.email_key, instr(p.email_key, '@') + 1), '.'),
        p.organisation_id, m.status, m.attempts, m.next_attempt_ms, m.lease_owner, m.lease_until_ms, m.last_error,
        m.created_ms, m.sent_at, m.message_id
      FROM portfolio_link_mails m JOIN organisation_people p ON p.id = m.person_id
      WHERE p.email IS NOT NULL`,
    `DROP TABLE portfolio_link_mails`,
    `ALTER TABLE portfolio_link_mails_new RENAME TO portfolio_link_mails`,
    `CREATE INDEX portfolio_link_mails_due ON portfolio_link_mails (status, next_attempt_ms)`,
    `CREATE INDEX portfolio_link_mails_mailbox ON portfolio_link_mails (mailbox, status, created_ms)`,
    `CREATE INDEX portfolio_link_mails_sent ON portfolio_link_mails (status, created_ms)`,
    `CREATE TABLE portfolio_links_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      organisation_id INTEGER NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
      person_id INTEGER REFERENCES organisation_people (id) ON DELETE CASCADE,
      email TEXT,
      email_key TEXT,
      token_hash TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      used_ms INTEGER
    )`,
    `INSERT INTO portfolio_links_new (id, organisation_id, person_id, email, email_key, token_hash, created_ms, used_ms)
      SELECT l.id, p.organisation_id, l.person_id, p.email, p.email_key, l.token_hash, l.created_ms, l.used_ms
      FROM portfolio_links l JOIN organisation_people p ON p.id = l.person_id`,
    `DROP TABLE portfolio_links`,
    `ALTER TABLE portfolio_links_new RENAME TO portfolio_links`,
    `CREATE UNIQUE INDEX portfolio_links_token ON portfolio_links (token_hash)`,
    `CREATE INDEX portfolio_links_person ON portfolio_links (person_id)`,
    `CREATE INDEX portfolio_links_address ON portfolio_links (organisation_id, email_key)`,
    `ALTER TABLE organisation_people DROP COLUMN link_sent_ms`,
  ],
};
