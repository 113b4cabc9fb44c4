import type { Migration } from '@/server/base/migrations';

/**
 * An instruction counts for an organisation only once its sender is proven (server/portfolio/
 * instruction-proof.ts): `organisation_id` is now the proven organisation, the one its portfolio, CSV
 * and figures show; `claimed_organisation_id` the one the sender's address names, kept while it waits
 * for proof; `organisation_proof` how it was proven: 'session' (sent signed in with that organisation's
 * portfolio cookie), 'mailbox' (confirmed from the acknowledgement sent to that address) or 'company'
 * (a signed CRM event naming the organisation).
 *
 * Rows stored before this kept the organisation of any address typed in the form. They keep it only
 * where a proof holds that the database can show: an organisation other than the one the address names
 * was set by a CRM event (the company); every other is a claim, not proven, until it is confirmed.
 */
export const instructionProofMigration: Migration = {
  id: '0028-instruction-proof',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN claimed_organisation_id INTEGER REFERENCES organisations (id)`,
    `ALTER TABLE enquiries ADD COLUMN organisation_proof TEXT CHECK (organisation_proof IN ('session', 'mailbox', 'company'))`,
    `UPDATE enquiries SET claimed_organisation_id = (
      SELECT d.organisation_id FROM organisation_domains d
      WHERE d.domain = rtrim(lower(substr(enquiries.email, instr(enquiries.email, '@') + 1)), '.')
    ) WHERE organisation_id IS NOT NULL`,
    `UPDATE enquiries SET organisation_proof = 'company'
      WHERE organisation_id IS NOT NULL AND organisation_id IS NOT claimed_organisation_id`,
    `UPDATE enquiries SET organisation_id = NULL WHERE organisation_id IS NOT NULL AND organisation_proof IS NULL`,
  ],
};
