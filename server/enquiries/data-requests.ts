import 'server-only';
import type { Client } from '@libsql/client';
import { eq, inArray, sql } from 'drizzle-orm';
import { orm, writeBatch } from '@/server/db';
import { enquiries, enquiryNotifications } from '@/server/db-schema';
import { storedEnquiryColumns } from '@/server/enquiries/store';

/** How a person's e-mail address is matched: trimmed, case-insensitive (addresses are in practice). */
const sentWith = (email: string) => sql`lower(trim(${enquiries.email})) = lower(trim(${email}))`;

export type PersonalDataExport = {
  email: string;
  exportedAt: string;
  enquiries: {
    id: number;
    receivedAt: string;
    name: string;
    email: string;
    phone: string | null;
    subject: string;
    message: string;
    clientAddress: string;
    disposition: string;
    verification: string;
    recaptchaScore: number | null;
    notification: { status: string; sentAt: string | null } | null;
  }[];
};

/**
 * Everything the site holds about an e-mail address (a subject access request): every enquiry sent
 * with it, with the client address, verification and the state of its notification. Error logs hold
 * no contact details (the browser's logger never sends them), so they are not part of it.
 */
export async function exportPersonalData(db: Client, email: string, now: number = Date.now()): Promise<PersonalDataExport> {
  const rows = await orm(db)
    .select({
      ...storedEnquiryColumns,
      clientAddress: enquiries.clientAddress,
      disposition: enquiries.disposition,
      recaptchaScore: enquiries.recaptchaScore,
      notificationStatus: enquiryNotifications.status,
      notificationSentAt: enquiryNotifications.sentAt,
    })
    .from(enquiries)
    .leftJoin(enquiryNotifications, eq(enquiryNotifications.enquiryId, enquiries.id))
    .where(sentWith(email))
    .orderBy(enquiries.id);
  return {
    email,
    exportedAt: new Date(now).toISOString(),
    enquiries: rows.map(({ notificationStatus, notificationSentAt, ...row }) => ({
      ...row,
      notification: notificationStatus === null ? null : { status: notificationStatus, sentAt: notificationSentAt },
    })),
  };
}

/** Deletes every enquiry sent with the address, and its notification even if it is still pending. */
export async function erasePersonalData(db: Client, email: string): Promise<{ enquiries: number; notifications: number }> {
  const theirs = orm(db).select({ id: enquiries.id }).from(enquiries).where(sentWith(email));
  const results = await writeBatch(db, [
    orm(db).delete(enquiryNotifications).where(inArray(enquiryNotifications.enquiryId, theirs)),
    orm(db).delete(enquiries).where(sentWith(email)),
  ]);
  return { notifications: results[0]?.rowsAffected ?? 0, enquiries: results[1]?.rowsAffected ?? 0 };
}
