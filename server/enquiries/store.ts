import 'server-only';
import { createHash } from 'node:crypto';
import type { Client, Row } from '@libsql/client';
import type { ContactValues } from '@/lib/contact-rules';

export type Disposition = 'accepted' | 'spam' | 'suspect';
export type VerificationStatus = 'not-configured' | 'verified' | 'unverified' | 'low-score' | 'honeypot';

export type NewEnquiry = {
  values: ContactValues;
  clientAddress: string;
  disposition: Disposition;
  verification: VerificationStatus;
  score?: number | null;
  detail?: string | null;
};

/** A resubmission with the same content from the same client within this window is stored once. */
export const DEDUPE_WINDOW_MS = 10 * 60_000;

export function contentHash(values: ContactValues, clientAddress: string): string {
  const hash = createHash('sha256');
  for (const part of [clientAddress, values.name, values.email, values.phone, values.subject, values.message]) {
    hash.update(part).update('\u0000');
  }
  return hash.digest('hex');
}

/**
 * Stores an enquiry and, when it is to be notified, its outbox job, in one transaction (a batch),
 * unless the same content from the same client arrived within DEDUPE_WINDOW_MS. The check and the
 * insert are one statement, so two concurrent duplicates cannot both be stored.
 */
export async function storeEnquiry(db: Client, enquiry: NewEnquiry, now: number = Date.now()): Promise<{ id: number; duplicate: boolean }> {
  const { values } = enquiry;
  const hash = contentHash(values, enquiry.clientAddress);
  const notify = enquiry.disposition === 'accepted' ? 1 : 0;
  const results = await db.batch(
    [
      {
        sql: `INSERT INTO enquiries (received_at, received_ms, name, email, phone, subject, message, client_address,
                content_hash, disposition, verification, recaptcha_score, verification_detail)
              SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
              WHERE NOT EXISTS (SELECT 1 FROM enquiries WHERE content_hash = ? AND received_ms > ?)`,
        args: [
          new Date(now).toISOString(),
          now,
          values.name,
          values.email,
          values.phone || null,
          values.subject,
          values.message,
          enquiry.clientAddress,
          hash,
          enquiry.disposition,
          enquiry.verification,
          enquiry.score ?? null,
          enquiry.detail ?? null,
          hash,
          now - DEDUPE_WINDOW_MS,
        ],
      },
      {
        sql: `INSERT INTO enquiry_notifications (enquiry_id, status, next_attempt_ms)
              SELECT last_insert_rowid(), 'pending', ? WHERE changes() = 1 AND ? = 1`,
        args: [now, notify],
      },
    ],
    'write',
  );
  const inserted = results[0];
  if (inserted && inserted.rowsAffected === 1 && inserted.lastInsertRowid !== undefined) {
    return { id: Number(inserted.lastInsertRowid), duplicate: false };
  }
  const existing = await db.execute({
    sql: 'SELECT id FROM enquiries WHERE content_hash = ? ORDER BY id DESC LIMIT 1',
    args: [hash],
  });
  return { id: Number(existing.rows[0]?.id ?? 0), duplicate: true };
}

/** One stored enquiry: what the notification e-mail and the listing show. */
export type StoredEnquiry = {
  id: number;
  receivedAt: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  verification: VerificationStatus;
};

function storedEnquiryFromRow(row: Row): StoredEnquiry {
  return {
    id: Number(row.id),
    receivedAt: String(row.received_at),
    name: String(row.name),
    email: String(row.email),
    phone: row.phone === null ? null : String(row.phone),
    subject: String(row.subject),
    message: String(row.message),
    verification: String(row.verification) as VerificationStatus,
  };
}

export async function findEnquiry(db: Client, id: number): Promise<StoredEnquiry | null> {
  const found = await db.execute({
    sql: 'SELECT id, received_at, name, email, phone, subject, message, verification FROM enquiries WHERE id = ?',
    args: [id],
  });
  const row = found.rows[0];
  return row ? storedEnquiryFromRow(row) : null;
}

export type EnquiryListing = StoredEnquiry & {
  clientAddress: string;
  disposition: Disposition;
  score: number | null;
  delivery: 'pending' | 'sent' | 'failed' | 'not notified';
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
};

export async function recentEnquiries(db: Client, limit = 20): Promise<EnquiryListing[]> {
  const result = await db.execute({
    sql: `SELECT * FROM (
            SELECT e.id, e.received_at, e.name, e.email, e.phone, e.subject, e.message, e.client_address, e.disposition,
                   e.verification, e.recaptcha_score, n.status, n.attempts, n.last_error, n.sent_at
            FROM enquiries e LEFT JOIN enquiry_notifications n ON n.enquiry_id = e.id
            ORDER BY e.id DESC LIMIT ?
          ) ORDER BY id ASC`,
    args: [limit],
  });
  return result.rows.map((row) => ({
    ...storedEnquiryFromRow(row),
    clientAddress: String(row.client_address),
    disposition: String(row.disposition) as Disposition,
    score: row.recaptcha_score === null ? null : Number(row.recaptcha_score),
    delivery: row.status === null ? 'not notified' : (String(row.status) as 'pending' | 'sent' | 'failed'),
    attempts: Number(row.attempts ?? 0),
    lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
    sentAt: row.sent_at === null || row.sent_at === undefined ? null : String(row.sent_at),
  }));
}
