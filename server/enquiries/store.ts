import 'server-only';
import { createHash } from 'node:crypto';
import type { Client } from '@libsql/client';
import { desc, eq, sql } from 'drizzle-orm';
import type { ContactValues } from '@/lib/contact-rules';
import { columnNames, orm, writeBatch } from '@/server/db';
import { enquiries, enquiryNotifications, type DISPOSITIONS, type VERIFICATION_STATUSES } from '@/server/db-schema';

export type Disposition = (typeof DISPOSITIONS)[number];
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

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
  const e = enquiries;
  const n = enquiryNotifications;
  const results = await writeBatch(db, [
    // The duplicate check and the insert are one statement (INSERT … SELECT … WHERE NOT EXISTS).
    orm(db)
      .run(sql`INSERT INTO ${e} ${columnNames(e.receivedAt, e.receivedMs, e.name, e.email, e.phone, e.subject, e.message, e.clientAddress, e.contentHash, e.disposition, e.verification, e.recaptchaScore, e.verificationDetail)}
      SELECT ${new Date(now).toISOString()}, ${now}, ${values.name}, ${values.email}, ${values.phone || null}, ${values.subject},
        ${values.message}, ${enquiry.clientAddress}, ${hash}, ${enquiry.disposition}, ${enquiry.verification},
        ${enquiry.score ?? null}, ${enquiry.detail ?? null}
      WHERE NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.contentHash} = ${hash} AND ${e.receivedMs} > ${now - DEDUPE_WINDOW_MS})`),
    // Its outbox job, only if the row above was inserted and the enquiry is to be notified.
    orm(db).run(sql`INSERT INTO ${n} ${columnNames(n.enquiryId, n.status, n.nextAttemptMs)}
      SELECT last_insert_rowid(), 'pending', ${now} WHERE changes() = 1 AND ${notify} = 1`),
  ]);
  const inserted = results[0];
  if (inserted && inserted.rowsAffected === 1 && inserted.lastInsertRowid !== undefined) {
    return { id: Number(inserted.lastInsertRowid), duplicate: false };
  }
  const [existing] = await orm(db).select({ id: e.id }).from(e).where(eq(e.contentHash, hash)).orderBy(desc(e.id)).limit(1);
  return { id: existing?.id ?? 0, duplicate: true };
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

/** The columns of a StoredEnquiry, for every query that reads one. */
export const storedEnquiryColumns = {
  id: enquiries.id,
  receivedAt: enquiries.receivedAt,
  name: enquiries.name,
  email: enquiries.email,
  phone: enquiries.phone,
  subject: enquiries.subject,
  message: enquiries.message,
  verification: enquiries.verification,
};

export async function findEnquiry(db: Client, id: number): Promise<StoredEnquiry | null> {
  const [found] = await orm(db).select(storedEnquiryColumns).from(enquiries).where(eq(enquiries.id, id));
  return found ?? null;
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
  const rows = await orm(db)
    .select({
      ...storedEnquiryColumns,
      clientAddress: enquiries.clientAddress,
      disposition: enquiries.disposition,
      score: enquiries.recaptchaScore,
      status: enquiryNotifications.status,
      attempts: enquiryNotifications.attempts,
      lastError: enquiryNotifications.lastError,
      sentAt: enquiryNotifications.sentAt,
    })
    .from(enquiries)
    .leftJoin(enquiryNotifications, eq(enquiryNotifications.enquiryId, enquiries.id))
    .orderBy(desc(enquiries.id))
    .limit(limit);
  // The newest `limit`, listed oldest first.
  return rows.reverse().map(({ status, attempts, ...row }) => ({ ...row, delivery: status ?? 'not notified', attempts: attempts ?? 0 }));
}
