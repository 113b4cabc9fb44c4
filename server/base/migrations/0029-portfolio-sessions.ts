import type { Migration } from '@/server/base/migrations';

/**
 * Portfolio links and sessions as people expect them (server/portfolio/portfolio-access.ts): an e-mailed
 * or printed link is for one opening within 24 hours (`portfolio_links`), and each opening starts a
 * session of its own (`portfolio_sessions`, 30 days from its last use, at most 5 a person), each stored
 * as the SHA-256 of a random token, so the database holds nothing that opens a portfolio. An
 * organisation can be suspended (`suspended_ms`): its links and sessions end and none can be asked for.
 *
 * The links and cookies given before this were a MAC of the person's and the organisation's keys, the
 * same on every e-mail and device and valid while the person stayed active. The keys go, so they open
 * nothing from here on: a person asks for a new link on /insurers.
 */
export const portfolioSessionsMigration: Migration = {
  id: '0029-portfolio-sessions',
  statements: [
    `CREATE TABLE portfolio_links (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      person_id INTEGER NOT NULL REFERENCES organisation_people (id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      used_ms INTEGER
    )`,
    `CREATE UNIQUE INDEX portfolio_links_token ON portfolio_links (token_hash)`,
    `CREATE INDEX portfolio_links_person ON portfolio_links (person_id)`,
    `CREATE TABLE portfolio_sessions (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      person_id INTEGER NOT NULL REFERENCES organisation_people (id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      last_used_ms INTEGER NOT NULL,
      browser TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX portfolio_sessions_token ON portfolio_sessions (token_hash)`,
    `CREATE INDEX portfolio_sessions_person ON portfolio_sessions (person_id, last_used_ms)`,
    `ALTER TABLE organisations ADD COLUMN suspended_ms INTEGER`,
    // The keys the old links and cookies were a MAC of: nothing is made from them any more.
    `ALTER TABLE organisations DROP COLUMN link_key`,
    `ALTER TABLE organisation_people DROP COLUMN link_key`,
  ],
};
