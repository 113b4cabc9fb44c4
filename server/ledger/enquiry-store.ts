import 'server-only';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Client } from '@libsql/client';
import { KEPT_CLAIM_MAX_AGE_MS } from '@/lib/offline/protocol';
import {
  CLAIM_FIELDS,
  CONTACT_FIELDS,
  hasClaim,
  hasSupportNeeds,
  isInstructingRole,
  isUrgent,
  type EnquiryField,
} from '@/lib/contact-fields';
import { ATTRIBUTION_FIELDS, type AttributionField } from '@/lib/visit-attribution';
import { enquiryReferenceSql } from '@/lib/enquiry-reference';
import { insertSelect, orm, writeBatch } from '@/server/base/db';
import { enquiries, enquiryNotifications, enquiryPhotos, webhookEvents } from '@/server/base/db-schema';
import {
  appendPhotoFiles,
  photosRoot as defaultPhotosRoot,
  removeFiles,
  removePhotoFiles,
  storedFileName,
  writePhotoFiles,
  type PhotoToStore,
} from '@/server/ledger/photo-store';
import { CRM_RECEIVED_PENDING, enquiryReceivedEvent, photosAddedEvent, photosHandedOverEvent } from '@/server/crm/outgoing-events';
import { mailJob } from '@/server/ledger/outbox';
import { emailKey } from '@/server/base/email-key';
import { rateLimitKey } from '@/server/edge/client-address.mjs';
import { organisationOfAddress } from '@/server/ledger/instructing-organisation';

/** An enquiry's row as the table types it: every other enquiry type here is a view of it. */
type EnquiryRow = typeof enquiries.$inferSelect;
type Disposition = EnquiryRow['disposition'];
export type PhotosDroppedReason = NonNullable<EnquiryRow['photosDroppedReason']>;

// The reads moved to enquiry-reads.ts; re-exported for the modules that import them from here.
export {
  findEnquiry,
  recentEnquiries,
  replacedEnquiry,
  storedEnquiryColumns,
  type EnquiryListing,
  type StoredEnquiry,
} from '@/server/ledger/enquiry-reads';

/**
 * A new enquiry: the schema's flat fields as parsed (lib/contact-schema.ts; the claim's and where it came
 * from may be missing, and an empty one is stored as NULL), with the verdict and what to do with it.
 * Each field is stored in the column of the same name.
 */
export type NewEnquiry = Record<'name' | 'email' | 'subject' | 'message', string> &
  Partial<Record<EnquiryField | AttributionField, string>> & {
    clientAddress: string;
    disposition: Disposition;
    verification: EnquiryRow['verification'];
    score?: number | null;
    detail?: string | null;
    /**
     * Whether an accepted enquiry's sender may get an acknowledgement e-mail. It is queued only while the
     * caps hold: one per recipient address per ACKNOWLEDGEMENT_RECIPIENT_WINDOW_MS, `perClient` an hour
     * for the client (by its rate-limit key: an IPv6 client by its /64), `perHour` in all.
     */
    acknowledge?: false | { perHour: number; perClient: number };
    /** Whether the company's CRM is told of it (an accepted one): marked as pending its `enquiry.received` event. */
    tellCrm?: boolean;
    /** Damage photos, already re-encoded. */
    photos?: readonly PhotoToStore[];
    /** Photos that came with it but are not kept, and why. */
    photosDropped?: { count: number; reason: PhotosDroppedReason };
    /** The key the form sent with every try of this enquiry (lib/enquiry-key.ts); null when none came. */
    enquiryKey?: string | null;
    /**
     * The organisation whose portfolio cookie the request carried (its sender signed in with it): proof
     * that an instruction from an address at one of its domains is that organisation's.
     */
    signedInOrganisation?: number | null;
  };

/**
 * A try with the key of an enquiry stored within this window is that enquiry, from any address: as
 * long as a phone keeps a claim to send (and a day more), so a kept claim whose answer was lost is
 * never stored twice, however late its phone finds a signal.
 */
const KEY_WINDOW_MS = KEPT_CLAIM_MAX_AGE_MS + 24 * 60 * 60_000;
/** A resubmission with the same content from the same client within this window is stored once. */
const DEDUPE_WINDOW_MS = 10 * 60_000;
/** One acknowledgement per recipient address in this window, whatever the number of enquiries. */
const ACKNOWLEDGEMENT_RECIPIENT_WINDOW_MS = 24 * 60 * 60_000;

const DISPOSITION_RANK: Record<Disposition, number> = { spam: 0, suspect: 1, accepted: 2 };

/** The fields a person typed (the claim's only when it has one), in order: what two tries of one enquiry share. */
function typedParts(enquiry: NewEnquiry): string[] {
  return [...CONTACT_FIELDS, ...(hasClaim(enquiry) || hasSupportNeeds(enquiry) ? CLAIM_FIELDS : [])].map((field) => enquiry[field] ?? '');
}

function hashOf(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex');
}

/** The typed fields and the client: the same enquiry sent again from the same place. */
const contentHash = (enquiry: NewEnquiry) => hashOf([enquiry.clientAddress, ...typedParts(enquiry)]);
/** The typed fields alone: what a try with a stored enquiry key must match to be that enquiry, from any address. */
const fieldsHash = (enquiry: NewEnquiry) => hashOf(typedParts(enquiry));

/** The optional fields' columns: an empty or missing field is NULL. */
function optionalColumns(enquiry: NewEnquiry) {
  const optional = ['phone', ...CLAIM_FIELDS, ...ATTRIBUTION_FIELDS] as const;
  return Object.fromEntries(optional.map((field) => [field, enquiry[field] || null])) as Record<(typeof optional)[number], string | null>;
}

/** An instruction's organisation: the one its sender's address names, and whether that is proven yet. */
type InstructingOrganisation = { claimed: number | null; proven: number | null; proof: 'session' | null };
const NO_ORGANISATION: InstructingOrganisation = { claimed: null, proven: null, proof: null };

/**
 * The instructing organisation an accepted instruction (an insurer's or loss adjuster's claim) names:
 * the one registered for its sender's domain, or none. Anyone can type an address, so it is only
 * claimed until proven (server/claims/instruction-proof.ts): here, by the sender being signed in with
 * that organisation's portfolio cookie. A spam or suspect one names none, so an organisation's portfolio
 * never shows it; accepted on a retry, it is assigned then.
 */
async function instructingOrganisation(db: Client, enquiry: NewEnquiry): Promise<InstructingOrganisation> {
  if (enquiry.disposition !== 'accepted' || !hasClaim(enquiry) || !isInstructingRole(enquiry.claimRole)) return NO_ORGANISATION;
  const claimed = await organisationOfAddress(db, enquiry.email);
  if (claimed === null) return NO_ORGANISATION;
  const signedIn = enquiry.signedInOrganisation === claimed;
  return { claimed, proven: signedIn ? claimed : null, proof: signedIn ? 'session' : null };
}

/** The row a new enquiry is stored as (its id and reference come from the database). */
function enquiryRow(enquiry: NewEnquiry, now: number, submissionKey: string, organisation: InstructingOrganisation) {
  const dropped = enquiry.photosDropped ?? { count: 0, reason: null };
  return {
    receivedAt: new Date(now).toISOString(),
    receivedMs: now,
    name: enquiry.name,
    email: enquiry.email,
    emailKey: emailKey(enquiry.email),
    subject: enquiry.subject,
    message: enquiry.message,
    ...optionalColumns(enquiry),
    urgent: isUrgent(enquiry) ? 1 : 0,
    clientAddress: enquiry.clientAddress,
    contentHash: contentHash(enquiry),
    fieldsHash: fieldsHash(enquiry),
    disposition: enquiry.disposition,
    verification: enquiry.verification,
    recaptchaScore: enquiry.score ?? null,
    verificationDetail: enquiry.detail ?? null,
    submissionKey,
    linkKey: randomBytes(24).toString('base64url'),
    enquiryKey: enquiry.enquiryKey ?? null,
    photosDropped: dropped.count,
    photosDroppedReason: dropped.reason,
    organisationId: organisation.proven,
    claimedOrganisationId: organisation.claimed,
    organisationProof: organisation.proof,
  } satisfies typeof enquiries.$inferInsert;
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
 * An enquiry has at most one (the table's unique key); a second attempt does nothing. An instruction
 * waiting for its sender's proof (server/claims/instruction-proof.ts) is acknowledged whatever the
 * address was sent within the day: its link is how the sender confirms each one.
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
  awaitingProof: boolean,
): Promise<SQL> {
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
  return mailJob(
    'acknowledgement',
    enquiryId,
    now,
    sql`${awaitingProof ? sql`1` : sql`NOT EXISTS (${acknowledgedSince(now - ACKNOWLEDGEMENT_RECIPIENT_WINDOW_MS)} AND ${e.emailKey} = ${address})`}
      AND (SELECT count(*) FROM (${acknowledgedSince(hourAgo)} AND ${inArray(e.clientAddress, sameClient)})) < ${limits.perClient}
      AND (SELECT count(*) FROM (${acknowledgedSince(hourAgo)})) < ${limits.perHour}`,
  );
}

/**
 * What makes a stored enquiry the same as this try: the same content from the same client within
 * DEDUPE_WINDOW_MS (a retry without a key, or the same enquiry sent again with the photos the visitor
 * forgot), or, when the form sent one, its key within KEY_WINDOW_MS from any address with the same
 * typed fields (a row stored before they were hashed matches by its key alone). The same key with
 * other words is a new enquiry (replacedBy), decision 0035.
 */
function sameEnquiry(row: ReturnType<typeof enquiryRow>, now: number): SQL | undefined {
  const e = enquiries;
  const sameContent = and(eq(e.contentHash, row.contentHash), gt(e.receivedMs, now - DEDUPE_WINDOW_MS));
  return row.enquiryKey
    ? or(and(sameKey(row.enquiryKey, now), or(eq(e.fieldsHash, row.fieldsHash), isNull(e.fieldsHash))), sameContent)
    : sameContent;
}

const sameKey = (enquiryKey: string, now: number) =>
  and(eq(enquiries.enquiryKey, enquiryKey), gt(enquiries.receivedMs, now - KEY_WINDOW_MS));

/**
 * The enquiry a new one with a stored key replaces (its words edited after a lost or cancelled answer):
 * the latest accepted one with that key, whose notification the company has or will have. NULL when
 * there is none (an earlier try that was not accepted was never notified, so there is nothing to tie).
 */
function replacedBy(row: ReturnType<typeof enquiryRow>, now: number): SQL {
  if (!row.enquiryKey) return sql`NULL`;
  const e = enquiries;
  return sql`(SELECT ${e.id} FROM ${e} WHERE ${and(sameKey(row.enquiryKey, now), eq(e.disposition, 'accepted'))} ORDER BY ${e.id} DESC LIMIT 1)`;
}

/**
 * Stores an enquiry with its reference, its photos' rows and, when it is accepted, its outbox jobs (the
 * company's notification; the sender's acknowledgement within its caps) in one write batch, unless it
 * is one already stored (sameEnquiry: its key, or without one its content and client): then the stored
 * one is returned, upgraded with what this try brings that it lacked (photos when it has none, with a
 * follow-up to the company when its notification has gone out or is being sent; an accepted verdict
 * over a suspect or spam one, with the notification it then needs, queued once). The duplicate check
 * and the insert are one statement, so two concurrent duplicates cannot both be stored; every later
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
  const attempt = storeAttempt(db, enquiry, now, await instructingOrganisation(db, enquiry));
  // The photos' files first, flushed to disk, in a folder named by the submission key: a row never
  // points at a missing or empty file. Removed again when no row comes to point at them.
  const photosRoot = options.photosRoot ?? defaultPhotosRoot();
  if (photos.length > 0) await writePhotoFiles(photosRoot, attempt.key, photos);
  let photosKept = false;
  try {
    const stored = await insertNewEnquiry(attempt);
    if (stored) {
      photosKept = true;
      return stored;
    }
    const upgraded = await upgradeStoredEnquiry(attempt);
    photosKept = upgraded.photosKept;
    return upgraded.result;
  } finally {
    if (!photosKept && photos.length > 0) await removePhotoFiles(photosRoot, [attempt.key]).catch(() => undefined);
  }
}

/**
 * One try at storing an enquiry: its row under a new submission key, and the statements either batch
 * may add for the row it stores or the one it upgrades (its photos' rows, its notification, its
 * acknowledgement within the caps).
 */
function storeAttempt(db: Client, enquiry: NewEnquiry, now: number, organisation: InstructingOrganisation) {
  const photos = enquiry.photos ?? [];
  const key = randomUUID();
  const row = enquiryRow(enquiry, now, key, organisation);
  const e = enquiries;
  const run = (statement: SQL) => orm(db).run(statement);
  const accepted = enquiry.disposition === 'accepted';
  const acknowledgement = async (enquiryId: SQL) =>
    accepted && enquiry.acknowledge
      ? [
          run(
            await acknowledgementJob(
              db,
              enquiryId,
              row.emailKey,
              enquiry.acknowledge,
              enquiry.clientAddress,
              now,
              row.claimedOrganisationId !== null && row.organisationId === null,
            ),
          ),
        ]
      : [];
  const notification = (enquiryId: SQL) => (accepted ? [run(mailJob('notification', enquiryId, now))] : []);
  const theNewRow = sql`SELECT ${e.id} FROM ${e} WHERE ${e.submissionKey} = ${key}`;
  const photoRows = photos.map((photo, index) =>
    run(
      insertSelect(
        enquiryPhotos,
        {
          enquiryId: sql`target.id`,
          position: index + 1,
          originalName: photo.originalName,
          fileName: storedFileName(index + 1),
          bytes: photo.bytes.length,
          width: photo.width,
          height: photo.height,
        },
        sql`FROM (${theNewRow}) AS target`,
      ),
    ),
  );
  return { db, enquiry, now, photos, key, row, run, accepted, acknowledgement, notification, theNewRow, photoRows };
}

type StoreAttempt = ReturnType<typeof storeAttempt>;

/** The first batch: the new row unless sameEnquiry finds one stored, its reference, jobs and photos. Null for a duplicate. */
async function insertNewEnquiry(attempt: StoreAttempt): Promise<StoreResult | null> {
  const { db, enquiry, now, key, row, run, accepted, acknowledgement, notification, theNewRow, photoRows } = attempt;
  const e = enquiries;
  const [, created] = await writeBatch(db, [
    run(
      insertSelect(
        e,
        { ...row, replacesId: replacedBy(row, now), ...(accepted && enquiry.tellCrm ? CRM_RECEIVED_PENDING : {}) },
        sql`WHERE NOT EXISTS (SELECT 1 FROM ${e} WHERE ${sameEnquiry(row, now)})`,
      ),
    ),
    // The reference, with the new row's id and reference returned: no row when this was a duplicate.
    orm(db)
      .update(e)
      .set({ reference: sql.raw(enquiryReferenceSql(e.id.name)) })
      .where(eq(e.submissionKey, key))
      .returning({ id: e.id, reference: e.reference }),
    ...notification(theNewRow),
    ...(await acknowledgement(theNewRow)),
    ...photoRows,
  ]);
  const [stored] = created?.rows ?? [];
  if (!stored) return null;
  return { id: Number(stored.id), reference: stored.reference == null ? null : String(stored.reference), duplicate: false };
}

/** A retry of a stored enquiry: it keeps its row and reference, and gains what it lacked. */
async function upgradeStoredEnquiry({
  db,
  enquiry,
  now,
  photos,
  key,
  row,
  run,
  accepted,
  acknowledgement,
  notification,
  theNewRow,
  photoRows,
}: StoreAttempt): Promise<{ result: StoreResult; photosKept: boolean }> {
  const e = enquiries;
  const [existing] = await orm(db)
    .select({ id: e.id, reference: e.reference, disposition: e.disposition })
    .from(e)
    .where(sameEnquiry(row, now))
    .orderBy(desc(e.id))
    .limit(1);
  if (!existing) return { result: { id: 0, reference: null, duplicate: true }, photosKept: false };
  const raise = DISPOSITION_RANK[enquiry.disposition] > DISPOSITION_RANK[existing.disposition];
  const theExistingRow = sql`SELECT ${e.id} FROM ${e} WHERE ${e.id} = ${existing.id} AND ${e.disposition} = 'accepted'`;
  // Photos only for one that has none: its folder becomes this try's, in the same statement as the
  // check; then their rows and, decided in the same batch, their follow-up to the company and their
  // event to the CRM (a crash cannot keep one without the other). First in the batch: its result says whether they are kept.
  const handOver =
    photos.length > 0
      ? [
          orm(db)
            .update(e)
            .set({ submissionKey: key, photosDropped: 0, photosDroppedReason: null })
            .where(
              and(
                eq(e.id, existing.id),
                sql`NOT EXISTS (SELECT 1 FROM ${enquiryPhotos} WHERE ${enquiryPhotos.enquiryId} = ${existing.id})`,
              ),
            ),
          ...photoRows,
          run(photosFollowUpJob(theNewRow, now)),
          ...(enquiry.tellCrm ? [run(photosHandedOverEvent(theNewRow, now))] : []),
        ]
      : [];
  const [handedOver] = await writeBatch(db, [
    ...handOver,
    ...(raise
      ? [
          orm(db)
            .update(e)
            .set({
              disposition: enquiry.disposition,
              verification: enquiry.verification,
              recaptchaScore: enquiry.score ?? null,
              verificationDetail: enquiry.detail ?? null,
              ...(row.claimedOrganisationId === null ? {} : { claimedOrganisationId: row.claimedOrganisationId }),
              ...(row.organisationId === null ? {} : { organisationId: row.organisationId, organisationProof: row.organisationProof }),
            })
            .where(and(eq(e.id, existing.id), eq(e.disposition, existing.disposition))),
        ]
      : []),
    ...notification(theExistingRow),
    ...(accepted && enquiry.tellCrm ? [run(enquiryReceivedEvent(theExistingRow, now))] : []),
    ...(await acknowledgement(theExistingRow)),
  ]);
  const photosKept = handOver.length > 0 && (handedOver?.rowsAffected ?? 0) > 0;
  return { result: { id: existing.id, reference: existing.reference, duplicate: true }, photosKept };
}

/**
 * Photos handed over after the notification went out, or while a worker holds it (it may have read the
 * photos already), get a follow-up of their own; the worker leaves photos that have one out of the
 * notification. Otherwise they go with the notification. At most one per enquiry (the unique key).
 */
function photosFollowUpJob(enquiryId: SQL, now: number): SQL {
  const n = enquiryNotifications;
  return mailJob(
    'photos',
    enquiryId,
    now,
    sql`EXISTS (SELECT 1 FROM ${n} WHERE ${n.enquiryId} = target.id AND ${n.kind} = 'notification'
      AND (${n.status} = 'sent' OR ${n.leaseOwner} IS NOT NULL))`,
  );
}

/** What became of photos added later: kept (with their count), or not, for want of room in the claim or a batch at the same moment. */
export type LaterPhotosResult = { kind: 'added'; count: number } | { kind: 'full'; room: number } | { kind: 'conflict' };

const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(error instanceof Error ? error.message : String(error));

/**
 * Photos the customer adds later, from the claim's status page: their files after the claim's last
 * photo (named by the batch as well, so files left by a crash never block a later one), their rows,
 * and (in the same batch) their own follow-up to the company, a 'photos' job keyed by the batch's first
 * position, so each batch is told exactly once. Two batches at once: the unique position decides, the
 * other is a `conflict`. An enquiry that was not accepted keeps none, but counts them as if it did
 * (`later_photos_unkept`) and is answered the same: neither the answer nor the room left reveals a
 * verdict. At most `maxPhotos` in all, counting those sent with the enquiry whether kept or not.
 */
export async function addPhotosLater(
  db: Client,
  enquiryId: number,
  photos: readonly PhotoToStore[],
  now: number,
  options: { photosRoot?: string; maxPhotos: number; tellCrm?: boolean },
): Promise<LaterPhotosResult> {
  const p = enquiryPhotos;
  const [enquiry] = await orm(db)
    .select({
      key: enquiries.submissionKey,
      disposition: enquiries.disposition,
      unkept: sql<number>`${enquiries.photosDropped} + ${enquiries.laterPhotosUnkept}`,
      kept: sql<number>`(SELECT count(*) FROM ${p} WHERE ${p}.${sql.identifier(p.enquiryId.name)} = ${enquiryId})`,
      last: sql<number>`(SELECT coalesce(max(${p}.${sql.identifier(p.position.name)}), 0) FROM ${p} WHERE ${p}.${sql.identifier(p.enquiryId.name)} = ${enquiryId})`,
    })
    .from(enquiries)
    .where(eq(enquiries.id, enquiryId));
  if (!enquiry?.key) throw new Error(`enquiry ${enquiryId} is missing`);
  const room = options.maxPhotos - Number(enquiry.kept) - Number(enquiry.unkept);
  if (photos.length > room) return { kind: 'full', room: Math.max(0, room) };
  if (photos.length === 0) return { kind: 'added', count: 0 };
  if (enquiry.disposition !== 'accepted') {
    await orm(db)
      .update(enquiries)
      .set({ laterPhotosUnkept: sql`${enquiries.laterPhotosUnkept} + ${photos.length}` })
      .where(eq(enquiries.id, enquiryId));
    return { kind: 'added', count: photos.length };
  }

  const first = Number(enquiry.last) + 1;
  const batch = randomUUID().slice(0, 8);
  const named = photos.map((photo, index) => ({ ...photo, fileName: `${first + index}-${batch}.jpg` }));
  const files = await appendPhotoFiles(options.photosRoot ?? defaultPhotosRoot(), enquiry.key, named);
  try {
    await writeBatch(db, [
      ...named.map((photo, index) =>
        orm(db)
          .insert(p)
          .values({
            enquiryId,
            position: first + index,
            originalName: photo.originalName,
            fileName: photo.fileName,
            bytes: photo.bytes.length,
            width: photo.width,
            height: photo.height,
          }),
      ),
      orm(db).insert(enquiryNotifications).values({ enquiryId, kind: 'photos', status: 'pending', nextAttemptMs: now, photosFrom: first }),
      ...(options.tellCrm
        ? [
            orm(db)
              .insert(webhookEvents)
              .values(photosAddedEvent(enquiryId, first, now)),
          ]
        : []),
    ]);
  } catch (error) {
    await removeFiles(files).catch(() => undefined);
    if (isUniqueViolation(error)) return { kind: 'conflict' };
    throw error;
  }
  return { kind: 'added', count: photos.length };
}
