import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Client } from '@libsql/client';
import { asc, eq, sql } from 'drizzle-orm';
import { business } from '@/content/business';
import type { ClaimStage, ClaimStatus, WaitingOn } from '@/lib/claim-stages';
import { isInstructingRole } from '@/lib/contact-fields';
import { dryingSummary } from '@/lib/drying';
import { enquiryIdOf, enquiryReference, isEnquiryReference } from '@/lib/enquiry-reference';
import { insurerTimes, type ResponseStandards } from '@/lib/insurer-times';
import { insertSelect, orm, writeBatch, type BuiltQuery } from '@/server/base/db';
import { claimStageChanges, enquiries, enquiryNotifications } from '@/server/base/db-schema';
import { claimUpdatedEvent } from '@/server/crm/outgoing-events';
import { dryingRecordOf } from '@/server/claims/drying/record';
import { emailKey } from '@/server/base/email-key';

export type StageChange = {
  stage: ClaimStage;
  waitingOn: WaitingOn | null;
  nextDate: string | null;
  note: string | null;
  tellCustomer: boolean;
  source: 'staff' | 'crm' | 'customer';
  /** When it happened (ms since 1970): a CRM event's own time; the time it is recorded when not given. */
  at?: number;
  eventId?: string;
  /** Whether the company's CRM is told of a change made on the site (one it sent itself never is). */
  tellCrm?: boolean;
  /** Who confirmed drying, for `dried` saved on the staff page. */
  confirmedBy?: string | null;
  /**
   * Writes that belong with the change, in its batch after it (the change is then the enquiry's highest
   * id): a survey visit's record of the change, its reminder and its CRM event.
   */
  alsoWrite?: readonly BuiltQuery[];
};

export type ClaimStatusOptions = {
  /** The moment a standard not yet met is due or missed at. */
  now?: number;
  /** The company's response standards (content/business.ts unless given). */
  standards?: ResponseStandards;
};

/**
 * A claim's status; on an instruction from an insurer or a loss adjuster, also its stamped times
 * against the company's standards (lib/insurer-times.ts), which nobody else's status shows.
 */
export async function claimStatus(db: Client, enquiryId: number, options: ClaimStatusOptions = {}): Promise<ClaimStatus | null> {
  const [enquiry] = await orm(db)
    .select({ receivedAt: enquiries.receivedAt, claimRole: enquiries.claimRole })
    .from(enquiries)
    .where(eq(enquiries.id, enquiryId));
  if (!enquiry) return null;
  const changes = await orm(db)
    .select({
      stage: claimStageChanges.stage,
      waitingOn: claimStageChanges.waitingOn,
      nextDate: claimStageChanges.nextDate,
      note: claimStageChanges.note,
      tellCustomer: claimStageChanges.tellCustomer,
      at: claimStageChanges.changedAt,
    })
    .from(claimStageChanges)
    .where(eq(claimStageChanges.enquiryId, enquiryId))
    .orderBy(asc(claimStageChanges.changedMs), asc(claimStageChanges.id));
  const latest = changes.at(-1);
  const now = options.now ?? Date.now();
  const drying = await dryingRecordOf(db, enquiryId);
  return {
    reference: enquiryReference(enquiryId),
    stage: latest?.stage ?? 'received',
    waitingOn: latest?.waitingOn ?? null,
    nextDate: latest?.nextDate ?? null,
    timeline: [
      { stage: 'received', at: enquiry.receivedAt, note: null },
      // A note kept from the customer (an internal correction) is not shown to them.
      ...changes.map(({ stage, at, note, tellCustomer }) => ({ stage, at, note: tellCustomer ? note : null })),
    ],
    insurer: isInstructingRole(enquiry.claimRole)
      ? insurerTimes({
          receivedAt: enquiry.receivedAt,
          changes,
          standards: options.standards ?? business.forInsurers,
          hours: business.openingHours,
          now,
        })
      : null,
    drying: dryingSummary(drying.readings, drying.machines, now),
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The enquiry a reference and the e-mail address it was sent with open, or null. A wrong reference and
 * a wrong address take the same path: one read by id, one comparison of digests of the same length.
 */
export async function lookUpClaim(db: Client, reference: string, email: string): Promise<number | null> {
  const id = isEnquiryReference(reference) ? enquiryIdOf(reference) : null;
  const [row] = await orm(db)
    .select({ emailKey: enquiries.emailKey })
    .from(enquiries)
    .where(eq(enquiries.id, id ?? -1));
  const matches = timingSafeEqual(digest(row?.emailKey ?? ''), digest(emailKey(email)));
  return id !== null && row?.emailKey && matches ? id : null;
}

/** What became of a change: it is what the claim now shows, it is kept but an earlier one's, or it was kept before. */
export type StageChangeOutcome = 'current' | 'late' | 'already-applied';

/**
 * Keeps a change of stage at the time it happened (`change.at`, else `now`: a Save on the staff page
 * happens when it is saved) and, unless the company said not to, queues the customer's e-mail about it
 * in the same write batch (an outbox job of kind 'stage', only for an accepted enquiry): the change is
 * told exactly once. The claim shows its latest change by the time it happened (on equal times, the one
 * recorded last): a change older than one already kept is `late`, kept in the timeline at its own time,
 * and tells the customer nothing. A CRM event already applied (its id seen) is not applied again.
 */
export async function recordStageChange(db: Client, enquiryId: number, change: StageChange, now: number): Promise<StageChangeOutcome> {
  const c = claimStageChanges;
  const at = change.at ?? now;
  const later = sql`EXISTS (SELECT 1 FROM ${c} AS later WHERE later.enquiry_id = ${enquiryId} AND later.changed_ms > ${at})`;
  const [superseded, inserted] = await writeBatch(db, [
    // Read in the batch's write transaction, before the insert: no change can come between.
    orm(db).run(sql`SELECT ${later} AS superseded`),
    orm(db)
      .insert(c)
      .values({
        enquiryId,
        stage: change.stage,
        waitingOn: change.waitingOn,
        nextDate: change.nextDate,
        note: change.note,
        tellCustomer: change.tellCustomer ? 1 : 0,
        source: change.source,
        eventId: change.eventId ?? null,
        confirmedBy: change.stage === 'dried' ? (change.confirmedBy ?? null) : null,
        changedAt: new Date(at).toISOString(),
        changedMs: at,
      })
      .onConflictDoNothing({ target: c.eventId }),
    // The row just inserted, if it was (changes() is the insert's): a conflicting event inserted none;
    // a late one tells the customer nothing.
    orm(db).run(
      insertSelect(
        enquiryNotifications,
        { enquiryId: sql`${enquiries.id}`, kind: 'stage', status: 'pending', nextAttemptMs: now, stageChangeId: sql`${c.id}` },
        sql`FROM ${c} JOIN ${enquiries} ON ${enquiries.id} = ${c.enquiryId}
          WHERE changes() = 1 AND ${c.id} = last_insert_rowid() AND ${c.enquiryId} = ${enquiryId} AND ${c.changedMs} = ${at}
            AND ${c.tellCustomer} = 1 AND ${enquiries.disposition} = 'accepted' AND NOT ${later}`,
      ),
    ),
    ...(change.alsoWrite ?? []),
    // A change made on the site never conflicts: it is the enquiry's change of the highest id (ids only grow).
    ...(change.tellCrm && change.source !== 'crm'
      ? [orm(db).run(claimUpdatedEvent(enquiryId, sql`(SELECT max(${c.id}) FROM ${c} WHERE ${c.enquiryId} = ${enquiryId})`, now))]
      : []),
  ]);
  if ((inserted?.rowsAffected ?? 0) === 0) return 'already-applied';
  return Number(superseded?.rows[0]?.superseded ?? 0) === 1 ? 'late' : 'current';
}
