import type { Migration } from '@/server/base/migrations';

/**
 * The drying documents the site has issued (server/claims/drying/issued-documents.ts): each PDF given out is
 * kept with its number, its issue time, its figures as printed and the SHA-256 of its bytes, so the
 * same request returns the same document and the verification page shows what was printed. Erasure and
 * retention clear a document's figures and bytes and keep its number and digests (`deleted_ms`), so a
 * verification link already printed says the record was deleted rather than that it never existed.
 * The verification links are signed with their own secret, which revoking or rotating a claim's links
 * does not touch.
 */
export const dryingDocumentsMigration: Migration = {
  id: '0025-drying-documents',
  statements: [
    `CREATE TABLE drying_documents (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      enquiry_id INTEGER REFERENCES enquiries (id),
      kind TEXT NOT NULL,
      sequence INTEGER NOT NULL,
      number TEXT NOT NULL,
      issued_at TEXT NOT NULL,
      issued_ms INTEGER NOT NULL,
      figures TEXT,
      figures_digest TEXT NOT NULL,
      content_digest TEXT,
      record_digest TEXT,
      pdf BLOB,
      pdf_sha256 TEXT NOT NULL,
      superseded_by TEXT,
      superseded_ms INTEGER,
      deleted_ms INTEGER
    )`,
    `CREATE UNIQUE INDEX drying_documents_number ON drying_documents (number)`,
    `CREATE INDEX drying_documents_enquiry ON drying_documents (enquiry_id, kind, sequence)`,
    `INSERT INTO site_secrets (name, value) VALUES ('drying-documents', randomblob(32))`,
  ],
};
