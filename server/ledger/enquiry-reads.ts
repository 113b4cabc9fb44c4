import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Client } from '@libsql/client';
import { CLAIM_FIELDS } from '@/lib/contact-fields';
import { ATTRIBUTION_FIELDS } from '@/lib/visit-attribution';
import { enquiryReference } from '@/lib/enquiry-reference';
import { orm } from '@/server/base/db';
import { claimStageChanges, enquiries, enquiryNotifications, enquiryPhotos } from '@/server/base/db-schema';
import { isClaimStage, type ClaimStage } from '@/lib/claim-stages';

/** An enquiry's row as the table types it: every other enquiry type here is a view of it. */
type EnquiryRow = typeof enquiries.$inferSelect;

const STORED_FIELDS = [
  'id',
  'reference',
  'receivedAt',
  'name',
  'email',
  'phone',
  'subject',
  'message',
  'verification',
  'verificationDetail',
  ...CLAIM_FIELDS,
  ...ATTRIBUTION_FIELDS,
] as const satisfies readonly (keyof EnquiryRow)[];
type StoredField = (typeof STORED_FIELDS)[number];

/** One stored enquiry as the e-mails, the listing and a person's export show it. */
export type StoredEnquiry = Pick<EnquiryRow, StoredField>;

/** The columns of a StoredEnquiry, for every query that reads one. */
export const storedEnquiryColumns = Object.fromEntries(STORED_FIELDS.map((field) => [field, enquiries[field]])) as {
  [field in StoredField]: (typeof enquiries)[field];
};

export async function findEnquiry(db: Client, id: number): Promise<StoredEnquiry | null> {
  const [found] = await orm(db).select(storedEnquiryColumns).from(enquiries).where(eq(enquiries.id, id));
  return found ?? null;
}

/** The enquiry this one replaces (an edited re-send, sameEnquiry), while it is still stored. */
export async function replacedEnquiry(db: Client, id: number): Promise<{ reference: string; receivedAt: string } | null> {
  const replaced = alias(enquiries, 'replaced');
  const [found] = await orm(db)
    .select({ reference: replaced.reference, receivedAt: replaced.receivedAt, id: replaced.id })
    .from(enquiries)
    .innerJoin(replaced, eq(replaced.id, enquiries.replacesId))
    .where(eq(enquiries.id, id));
  return found ? { reference: found.reference ?? enquiryReference(found.id), receivedAt: found.receivedAt } : null;
}

type JobStatus = (typeof enquiryNotifications.$inferSelect)['status'];

export type EnquiryListing = StoredEnquiry &
  Pick<EnquiryRow, 'clientAddress' | 'disposition'> & {
    score: EnquiryRow['recaptchaScore'];
    /** The company's notification. */
    delivery: JobStatus | 'not notified';
    attempts: number;
    lastError: string | null;
    sentAt: string | null;
    /** The sender's acknowledgement ('not sent': not accepted, or ENQUIRY_ACKNOWLEDGE was off). */
    acknowledgement: JobStatus | 'not sent';
    /** How many photos came with it. */
    photos: number;
    /** Where its repair stands: the latest change of stage, or `received`. */
    stage: ClaimStage;
  };

const notificationJobs = alias(enquiryNotifications, 'notification_jobs');
const acknowledgementJobs = alias(enquiryNotifications, 'acknowledgement_jobs');

export async function recentEnquiries(db: Client, limit = 20): Promise<EnquiryListing[]> {
  const rows = await orm(db)
    .select({
      ...storedEnquiryColumns,
      clientAddress: enquiries.clientAddress,
      disposition: enquiries.disposition,
      score: enquiries.recaptchaScore,
      status: notificationJobs.status,
      attempts: notificationJobs.attempts,
      lastError: notificationJobs.lastError,
      sentAt: notificationJobs.sentAt,
      acknowledgement: acknowledgementJobs.status,
      photos: sql<number>`(SELECT count(*) FROM ${enquiryPhotos} WHERE ${enquiryPhotos.enquiryId} = ${enquiries.id})`.mapWith(Number),
      stage: sql<
        string | null
      >`(SELECT ${claimStageChanges.stage} FROM ${claimStageChanges} WHERE ${claimStageChanges.enquiryId} = ${enquiries.id} ORDER BY ${claimStageChanges.changedMs} DESC, ${claimStageChanges.id} DESC LIMIT 1)`,
    })
    .from(enquiries)
    .leftJoin(notificationJobs, and(eq(notificationJobs.enquiryId, enquiries.id), eq(notificationJobs.kind, 'notification')))
    .leftJoin(acknowledgementJobs, and(eq(acknowledgementJobs.enquiryId, enquiries.id), eq(acknowledgementJobs.kind, 'acknowledgement')))
    .orderBy(desc(enquiries.id))
    .limit(limit);
  // The newest `limit`, listed oldest first.
  return rows.reverse().map(({ status, attempts, acknowledgement, stage, ...row }) => ({
    ...row,
    stage: isClaimStage(stage) ? stage : 'received',
    delivery: status ?? 'not notified',
    attempts: attempts ?? 0,
    acknowledgement: acknowledgement ?? 'not sent',
  }));
}

/** Whether an enquiry with this key was stored since `since` (a try of it already arrived). */
export async function enquiryKeyStored(db: Client, enquiryKey: string, since: number): Promise<boolean> {
  const [found] = await orm(db)
    .select({ id: enquiries.id })
    .from(enquiries)
    .where(and(eq(enquiries.enquiryKey, enquiryKey), sql`${enquiries.receivedMs} > ${since}`))
    .limit(1);
  return found !== undefined;
}
