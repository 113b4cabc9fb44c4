import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Client } from '@libsql/client';
import { CLAIM_FIELDS, isUrgent, type ClaimField, type ClaimValues } from '@/lib/contact-fields';
import type { ContactValues } from '@/lib/contact-fields';
import type { Attribution, AttributionField } from '@/lib/visit-attribution';
import { enquiryReferenceSql } from '@/lib/enquiry-reference';
import { columnNames, orm, writeBatch } from '@/server/db';
import {
  enquiries,
  enquiryNotifications,
  enquiryPhotos,
  type DISPOSITIONS,
  type JOB_KINDS,
  type PHOTOS_DROPPED_REASONS,
  type VERIFICATION_STATUSES,
} from '@/server/db-schema';
import {
  photosRoot as defaultPhotosRoot,
  removePhotoFiles,
  storedFileName,
  writePhotoFiles,
  type PhotoToStore,
} from '@/server/enquiries/photo-store';
import { emailKey } from '@/server/enquiries/email-key';
import { rateLimitKey } from '@/server/proxy-client-address.mjs';

export type Disposition = (typeof DISPOSITIONS)[number];
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export type JobKind = (typeof JOB_KINDS)[number];
export type PhotosDroppedReason = (typeof PHOTOS_DROPPED_REASONS)[number];

export type NewEnquiry = {
  values: ContactValues;
  /** The optional claim details; null when none was given. */
  claim: ClaimValues | null;
  /** Where it came from; empty values are stored as NULL. */
  attribution?: Attribution;
  clientAddress: string;
  disposition: Disposition;
  verification: VerificationStatus;
  score?: number | null;
  detail?: string | null;
  /**
   * Whether an accepted enquiry's sender may get an acknowledgement e-mail. It is queued only while the
   * caps hold: one per recipient address per ACKNOWLEDGEMENT_RECIPIENT_WINDOW_MS, `perClient` an hour
   * for the client (by its rate-limit key: an IPv6 client by its /64), `perHour` in all.
   */
  acknowledge?: false | { perHour: number; perClient: number };
  /** Damage photos, already re-encoded. */
  photos?: readonly PhotoToStore[];
  /** Photos that came with it but are not kept, and why. */
  photosDropped?: { count: number; reason: PhotosDroppedReason };
};

/** A resubmission with the same content from the same client within this window is stored once. */
export const DEDUPE_WINDOW_MS = 10 * 60_000;
/** One acknowledgement per recipient address in this window, whatever the number of enquiries. */
export const ACKNOWLEDGEMENT_RECIPIENT_WINDOW_MS = 24 * 60 * 60_000;

const DISPOSITION_RANK: Record<Disposition, number> = { spam: 0, suspect: 1, accepted: 2 };

export function contentHash(values: ContactValues, claim: ClaimValues | null, clientAddress: string): string {
  const hash = createHash('sha256');
  const claimParts = claim ? CLAIM_FIELDS.map((field) => claim[field]) : [];
  for (const part of [clientAddress, values.name, values.email, values.phone, values.subject, values.message, ...claimParts]) {
    hash.update(part).update('\u0000');
  }
  return hash.digest('hex');
}

export type StoreResult = {
  id: number;
  reference: string | null;
  duplicate: boolean;
};

/**
 * The acknowledgement job of the enquiry `enquiryId` selects, inserted only while the caps hold: no
 * acknowledgement to the same address (by its key) within a day, fewer than `limits.perClient` in the
 * last hour for enquiries from the same client, fewer than `limits.perHour` in the last hour in all.
 * An enquiry has at most one (the table's unique key); a second attempt does nothing.
 *
 * The client is compared by its rate-limit key, which SQL cannot compute from a stored address (an
 * IPv6 address has many spellings), so the addresses acknowledged in the last hour (at most perHour of
 * them) are read first and those with the same key passed to the statement, with the client's own.
 * A concurrent enquiry from another address in the same /64 can slip past between the read and the
 * insert; the enquiry rate limit bounds that.
 */
async function acknowledgementJob(
  db: Client,
  enquiryId: SQL,
  address: string,
  limits: { perHour: number; perClient: number },
  clientAddress: string,
  now: number,
) {
  const e = enquiries;
  const n = enquiryNotifications;
  const hourAgo = now - 60 * 60_000;
  const acknowledgedSince = (since: number) =>
    sql`SELECT ${n.id} FROM ${n} JOIN ${e} ON ${e.id} = ${n.enquiryId} WHERE ${n.kind} = 'acknowledgement' AND ${e.receivedMs} > ${since}`;
  const recent = await orm(db)
    .selectDistinct({ clientAddress: e.clientAddress })
    .from(n)
    .innerJoin(e, eq(e.id, n.enquiryId))
    .where(and(eq(n.kind, 'acknowledgement'), gt(e.receivedMs, hourAgo)));
  const client = rateLimitKey(clientAddress);
  const sameClient = [clientAddress, ...recent.map((row) => row.clientAddress).filter((other) => rateLimitKey(other) === client)];
  // In a list: a drizzle query is a thenable, which an async function's return would run.
  return [
    orm(db).run(sql`INSERT INTO ${n} ${columnNames(n.enquiryId, n.kind, n.status, n.nextAttemptMs)}
      SELECT id, 'acknowledgement', 'pending', ${now} FROM (${enquiryId})
      WHERE NOT EXISTS (${acknowledgedSince(now - ACKNOWLEDGEMENT_RECIPIENT_WINDOW_MS)} AND ${e.emailKey} = ${address})
        AND (SELECT count(*) FROM (${acknowledgedSince(hourAgo)} AND ${inArray(e.clientAddress, sameClient)})) < ${limits.perClient}
        AND (SELECT count(*) FROM (${acknowledgedSince(hourAgo)})) < ${limits.perHour}
      ON CONFLICT DO NOTHING`),
  ];
}

/**
 * Stores an enquiry with its reference, its photos' rows and, when it is accepted, its outbox jobs (the
 * company's notification; the sender's acknowledgement within its caps) in one write batch, unless the
 * same content from the same client arrived within DEDUPE_WINDOW_MS: then the stored one is returned,
 * upgraded with what this try brings that it lacked (photos when it has none, with a follow-up to the
 * company when its notification has gone out or is being sent; an accepted verdict over a suspect or
 * spam one, with the notification it then needs, queued once). The duplicate check and
 * the insert are one statement, so two concurrent duplicates cannot both be stored; every later
 * statement finds the new row by its submission key, so none of them runs for a duplicate. One batch,
 * not an interactive transaction: the write lock is held for the statements alone (decision 0010).
 */
export async function storeEnquiry(
  db: Client,
  enquiry: NewEnquiry,
  now: number = Date.now(),
  options: { photosRoot?: string } = {},
): Promise<StoreResult> {
  const photos = enquiry.photos ?? [];
  const { values, claim, attribution: from } = enquiry;
  const hash = contentHash(values, claim, enquiry.clientAddress);
  const address = emailKey(values.email);
  const key = randomUUID();
  const e = enquiries;
  const n = enquiryNotifications;
  const p = enquiryPhotos;
  const orNull = (value: string | undefined) => value || null;
  const accepted = enquiry.disposition === 'accepted';
  const acknowledge = accepted && enquiry.acknowledge ? enquiry.acknowledge : null;
  const dropped = enquiry.photosDropped ?? { count: 0, reason: null };
  const theNewRow = sql`SELECT ${e.id} FROM ${e} WHERE ${e.submissionKey} = ${key}`;
  const notificationJob = (enquiryId: SQL) =>
    orm(db).run(sql`INSERT INTO ${n} ${columnNames(n.enquiryId, n.kind, n.status, n.nextAttemptMs)}
      SELECT id, 'notification', 'pending', ${now} FROM (${enquiryId}) WHERE true ON CONFLICT DO NOTHING`);
  // Photos handed over after the notification went out, or while a worker holds it (it may have read
  // the photos already), get a follow-up of their own; the worker leaves photos that have one out of
  // the notification. Otherwise they go with the notification. At most one per enquiry (the unique key).
  const photosFollowUpJob = (enquiryId: SQL) =>
    orm(db).run(sql`INSERT INTO ${n} ${columnNames(n.enquiryId, n.kind, n.status, n.nextAttemptMs)}
      SELECT id, 'photos', 'pending', ${now} FROM (${enquiryId}) AS handed
      WHERE EXISTS (SELECT 1 FROM ${n} WHERE ${n.enquiryId} = handed.id AND ${n.kind} = 'notification'
        AND (${n.status} = 'sent' OR ${n.leaseOwner} IS NOT NULL))
      ON CONFLICT DO NOTHING`);
  const photoRows = (enquiryId: SQL) =>
    photos.map((photo, index) =>
      orm(db).run(sql`INSERT INTO ${p} ${columnNames(p.enquiryId, p.position, p.originalName, p.fileName, p.bytes, p.width, p.height)}
        SELECT id, ${index + 1}, ${photo.originalName}, ${storedFileName(index + 1)}, ${photo.bytes.length}, ${photo.width}, ${photo.height}
        FROM (${enquiryId})`),
    );

  // The photos' files first, flushed to disk, in a folder named by the submission key: a row never
  // points at a missing or empty file. Removed again when no row comes to point at them.
  const photosRoot = options.photosRoot ?? defaultPhotosRoot();
  if (photos.length > 0) await writePhotoFiles(photosRoot, key, photos);
  let photosKept = false;
  try {
    const results = await writeBatch(db, [
      orm(db)
        .run(sql`INSERT INTO ${e} ${columnNames(e.receivedAt, e.receivedMs, e.name, e.email, e.emailKey, e.phone, e.subject, e.message, e.claimRole, e.insurer, e.claimReference, e.damageDate, e.damageType, e.postcode, e.clientAddress, e.contentHash, e.disposition, e.verification, e.recaptchaScore, e.verificationDetail, e.submissionKey, e.photosDropped, e.photosDroppedReason, e.sentFrom, e.landingPage, e.referrer, e.utmSource, e.utmMedium, e.utmCampaign, e.worsening, e.habitable, e.vulnerable, e.urgent, e.policyholderName, e.policyholderPhone, e.propertyAddress, e.vatRegistered, e.excess, e.desktopAssessment)}
      SELECT ${new Date(now).toISOString()}, ${now}, ${values.name}, ${values.email}, ${address}, ${values.phone || null}, ${values.subject},
        ${values.message}, ${orNull(claim?.claimRole)}, ${orNull(claim?.insurer)}, ${orNull(claim?.claimReference)},
        ${orNull(claim?.damageDate)}, ${orNull(claim?.damageType)}, ${orNull(claim?.postcode)}, ${enquiry.clientAddress}, ${hash},
        ${enquiry.disposition}, ${enquiry.verification}, ${enquiry.score ?? null}, ${enquiry.detail ?? null}, ${key},
        ${dropped.count}, ${dropped.reason}, ${orNull(from?.sentFrom)}, ${orNull(from?.landingPage)}, ${orNull(from?.referrer)},
        ${orNull(from?.utmSource)}, ${orNull(from?.utmMedium)}, ${orNull(from?.utmCampaign)},
        ${orNull(claim?.worsening)}, ${orNull(claim?.habitable)}, ${orNull(claim?.vulnerable)}, ${isUrgent(claim) ? 1 : 0},
        ${orNull(claim?.policyholderName)}, ${orNull(claim?.policyholderPhone)}, ${orNull(claim?.propertyAddress)},
        ${orNull(claim?.vatRegistered)}, ${orNull(claim?.excess)}, ${orNull(claim?.desktopAssessment)}
      WHERE NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.contentHash} = ${hash} AND ${e.receivedMs} > ${now - DEDUPE_WINDOW_MS})`),
      orm(db).run(
        sql`UPDATE ${e} SET ${sql.identifier(e.reference.name)} = ${sql.raw(enquiryReferenceSql(e.id.name))} WHERE ${e.submissionKey} = ${key}`,
      ),
      ...(accepted ? [notificationJob(theNewRow)] : []),
      ...(acknowledge ? await acknowledgementJob(db, theNewRow, address, acknowledge, enquiry.clientAddress, now) : []),
      ...photoRows(theNewRow),
      orm(db).select({ id: e.id, reference: e.reference }).from(e).where(eq(e.submissionKey, key)),
    ]);
    const [created] = results.at(-1)?.rows ?? [];
    if (created) {
      photosKept = true;
      return {
        id: Number(created.id),
        reference: created.reference == null ? null : String(created.reference),
        duplicate: false,
      };
    }

    // A retry of a stored enquiry: it keeps its row and reference, and gains what it lacked.
    const [existing] = await orm(db)
      .select({ id: e.id, reference: e.reference, disposition: e.disposition })
      .from(e)
      .where(and(eq(e.contentHash, hash), gt(e.receivedMs, now - DEDUPE_WINDOW_MS)))
      .orderBy(desc(e.id))
      .limit(1);
    if (!existing) return { id: 0, reference: null, duplicate: true };
    const raise = DISPOSITION_RANK[enquiry.disposition] > DISPOSITION_RANK[existing.disposition];
    const theExistingRow = sql`SELECT ${e.id} FROM ${e} WHERE ${e.id} = ${existing.id} AND ${e.disposition} = 'accepted'`;
    // Photos only for one that has none: its folder becomes this try's, in the same statement as the check.
    const handOver = orm(db)
      .run(sql`UPDATE ${e} SET ${sql.identifier(e.submissionKey.name)} = ${key}, ${sql.identifier(e.photosDropped.name)} = 0,
      ${sql.identifier(e.photosDroppedReason.name)} = NULL
      WHERE ${e.id} = ${existing.id} AND NOT EXISTS (SELECT 1 FROM ${p} WHERE ${p.enquiryId} = ${existing.id})`);
    const statements = [
      ...(raise
        ? [
            orm(db)
              .update(e)
              .set({
                disposition: enquiry.disposition,
                verification: enquiry.verification,
                recaptchaScore: enquiry.score ?? null,
                verificationDetail: enquiry.detail ?? null,
              })
              .where(and(eq(e.id, existing.id), eq(e.disposition, existing.disposition))),
          ]
        : []),
      ...(accepted ? [notificationJob(theExistingRow)] : []),
      ...(acknowledge ? await acknowledgementJob(db, theExistingRow, address, acknowledge, enquiry.clientAddress, now) : []),
    ];
    const handOverAt = statements.length;
    // The follow-up is decided in the same batch as the photos' rows: a crash cannot keep one without the other.
    if (photos.length > 0) statements.push(handOver, ...photoRows(theNewRow), photosFollowUpJob(theNewRow));
    const upgrade = await writeBatch(db, statements);
    // The photos are kept when the statement that hands the folder over changed the row.
    photosKept = photos.length > 0 && (upgrade[handOverAt]?.rowsAffected ?? 0) > 0;
    return { id: existing.id, reference: existing.reference, duplicate: true };
  } finally {
    if (!photosKept && photos.length > 0) await removePhotoFiles(photosRoot, [key]).catch(() => undefined);
  }
}

/** One stored enquiry: what the e-mails and the listing show. */
export type StoredEnquiry = {
  id: number;
  reference: string | null;
  receivedAt: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  verification: VerificationStatus;
  verificationDetail: string | null;
} & { [field in ClaimField]: string | null } & { [field in AttributionField]: string | null };

/** The columns of a StoredEnquiry, for every query that reads one. */
export const storedEnquiryColumns = {
  id: enquiries.id,
  reference: enquiries.reference,
  receivedAt: enquiries.receivedAt,
  name: enquiries.name,
  email: enquiries.email,
  phone: enquiries.phone,
  subject: enquiries.subject,
  message: enquiries.message,
  verification: enquiries.verification,
  verificationDetail: enquiries.verificationDetail,
  claimRole: enquiries.claimRole,
  insurer: enquiries.insurer,
  claimReference: enquiries.claimReference,
  damageDate: enquiries.damageDate,
  damageType: enquiries.damageType,
  postcode: enquiries.postcode,
  worsening: enquiries.worsening,
  habitable: enquiries.habitable,
  vulnerable: enquiries.vulnerable,
  policyholderName: enquiries.policyholderName,
  policyholderPhone: enquiries.policyholderPhone,
  propertyAddress: enquiries.propertyAddress,
  vatRegistered: enquiries.vatRegistered,
  excess: enquiries.excess,
  desktopAssessment: enquiries.desktopAssessment,
  sentFrom: enquiries.sentFrom,
  landingPage: enquiries.landingPage,
  referrer: enquiries.referrer,
  utmSource: enquiries.utmSource,
  utmMedium: enquiries.utmMedium,
  utmCampaign: enquiries.utmCampaign,
};

/** The claim details of a stored enquiry; null when it has none. */
export function storedClaim(enquiry: StoredEnquiry): ClaimValues | null {
  if (CLAIM_FIELDS.every((field) => !enquiry[field])) return null;
  return Object.fromEntries(CLAIM_FIELDS.map((field) => [field, enquiry[field] ?? ''])) as ClaimValues;
}

export async function findEnquiry(db: Client, id: number): Promise<StoredEnquiry | null> {
  const [found] = await orm(db).select(storedEnquiryColumns).from(enquiries).where(eq(enquiries.id, id));
  return found ?? null;
}

export type JobState = 'pending' | 'sent' | 'failed' | 'not sent';

export type EnquiryListing = StoredEnquiry & {
  clientAddress: string;
  disposition: Disposition;
  score: number | null;
  /** The company's notification. */
  delivery: 'pending' | 'sent' | 'failed' | 'not notified';
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
  /** The sender's acknowledgement ('not sent': not accepted, or ENQUIRY_ACKNOWLEDGE was off). */
  acknowledgement: JobState;
  /** How many photos came with it. */
  photos: number;
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
    })
    .from(enquiries)
    .leftJoin(notificationJobs, and(eq(notificationJobs.enquiryId, enquiries.id), eq(notificationJobs.kind, 'notification')))
    .leftJoin(acknowledgementJobs, and(eq(acknowledgementJobs.enquiryId, enquiries.id), eq(acknowledgementJobs.kind, 'acknowledgement')))
    .orderBy(desc(enquiries.id))
    .limit(limit);
  // The newest `limit`, listed oldest first.
  return rows.reverse().map(({ status, attempts, acknowledgement, ...row }) => ({
    ...row,
    delivery: status ?? 'not notified',
    attempts: attempts ?? 0,
    acknowledgement: acknowledgement ?? 'not sent',
  }));
}
