import type { Migration } from '@/server/base/migrations';

/**
 * The insurers, loss adjusters and networks that instruct the company (server/portfolio/): each known
 * by the e-mail domains its instructions come from (a domain belongs to one organisation at most), with
 * its own response standards (NULL: the company's published ones). A claim belongs to the organisation
 * whose domain sent its instruction (`enquiries.organisation_id`, set when it is stored or by a CRM
 * event). Each person given a portfolio link has a row of their own with a link key, so one leaver's
 * link ends alone; the organisation's own link key ends all of them at once. The link lasts 30 days
 * from its last use (`last_used_ms`). The access log keeps who opened or downloaded what, and when.
 */
export const instructingOrganisationsMigration: Migration = {
  id: '0026-instructing-organisations',
  statements: [
    `CREATE TABLE organisations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      standards TEXT,
      link_key TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL
    )`,
    `CREATE UNIQUE INDEX organisations_name ON organisations (name)`,
    `CREATE TABLE organisation_domains (
      domain TEXT PRIMARY KEY,
      organisation_id INTEGER NOT NULL REFERENCES organisations (id)
    )`,
    `CREATE INDEX organisation_domains_organisation ON organisation_domains (organisation_id)`,
    `CREATE TABLE organisation_people (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      organisation_id INTEGER NOT NULL REFERENCES organisations (id),
      email TEXT,
      email_key TEXT,
      link_key TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      last_used_ms INTEGER,
      link_sent_ms INTEGER,
      revoked_ms INTEGER
    )`,
    `CREATE UNIQUE INDEX organisation_people_email ON organisation_people (organisation_id, email_key)`,
    `CREATE TABLE portfolio_access_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      organisation_id INTEGER NOT NULL REFERENCES organisations (id),
      person_id INTEGER REFERENCES organisation_people (id),
      action TEXT NOT NULL,
      detail TEXT,
      at_ms INTEGER NOT NULL
    )`,
    `CREATE INDEX portfolio_access_log_organisation ON portfolio_access_log (organisation_id, at_ms)`,
    `ALTER TABLE enquiries ADD COLUMN organisation_id INTEGER REFERENCES organisations (id)`,
    `CREATE INDEX enquiries_organisation ON enquiries (organisation_id, received_ms)`,
    `INSERT INTO site_secrets (name, value) VALUES ('portfolio-links', randomblob(32))`,
  ],
};
