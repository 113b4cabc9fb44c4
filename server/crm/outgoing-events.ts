import 'server-only';
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Client } from '@libsql/client';
import { insertSelect, orm, writeBatch } from '@/server/base/db';
import {
  claimStageChanges,
  dryingVisits,
  enquiries,
  surveyAppointmentChanges,
  webhookEvents,
  type SurveyAppointmentAction,
} from '@/server/base/db-schema';

// The events the site sends the CRM, built as rows of its webhook outbox in the caller's batch, so an
// event is queued exactly when what it tells of is written: the enquiry stored, a batch of photos added
// later, a change of stage, a drying visit recorded on the site, a survey visit booked, moved, cancelled or missed. server/crm/webhooks.ts delivers them.
// Like the outbox writer it imports only the database, so every step from the ledger on may call it.

const eventIdSql = sql`'msg_' || lower(hex(randomblob(16)))`;
export const newEventId = () => `msg_${randomBytes(16).toString('hex')}`;

/**
 * The `enquiry.received` event of each enquiry the SELECT `enquiryId` yields (`target`), once each;
 * queued (`createdMs`) and due (`nextAttemptMs`) at `queuedMs`, a number or an expression over `target`.
 */
export function enquiryReceivedEvent(enquiryId: SQL, queuedMs: number | SQL): SQL {
  return insertSelect(
    webhookEvents,
    {
      enquiryId: sql`target.id`,
      type: 'enquiry.received',
      eventId: eventIdSql,
      occurredAt: sql`(SELECT ${enquiries.receivedAt} FROM ${enquiries} WHERE ${enquiries.id} = target.id)`,
      createdMs: queuedMs,
      nextAttemptMs: queuedMs,
    },
    sql`FROM (${enquiryId}) AS target WHERE true ON CONFLICT DO NOTHING`,
  );
}

// An accepted enquiry stored while the webhooks are on is only marked as pending its `enquiry.received`
// (a column of its own row): a busy intake pays no statement for the CRM. The CRM's worker writes the
// pending events before it claims any, queued at the moment each enquiry was received, so they count
// their day of retries and their wait from then, and are claimed in the order they were received.

/** What the intake sets on an accepted enquiry's row when the CRM is told of it. */
export const CRM_RECEIVED_PENDING = { crmReceivedPending: 1 } as const;

/** At most this many pending events written at once (the write holds the lock the intake needs). */
const PENDING_BATCH = 500;

/**
 * Writes the pending `enquiry.received` events, oldest first, and clears the mark of each enquiry whose
 * event now exists (written here, or earlier by a re-send or `npm run webhooks -- --resend`), in one
 * write, until none is pending. It reads first, so it takes no write lock when none is (every poll).
 * Returns how many events it wrote.
 */
export async function writePendingReceivedEvents(db: Client): Promise<number> {
  const e = enquiries;
  const w = webhookEvents;
  const owed = sql`${e.crmReceivedPending} = 1`;
  let written = 0;
  for (;;) {
    const [any] = await orm(db).select({ id: e.id }).from(e).where(owed).limit(1);
    if (!any) return written;
    const [inserted] = await writeBatch(db, [
      orm(db).run(
        enquiryReceivedEvent(
          sql`SELECT ${e.id} AS id, ${e.receivedMs} AS received_ms FROM ${e} WHERE ${owed} ORDER BY ${e.id} LIMIT ${PENDING_BATCH}`,
          sql`target.received_ms`,
        ),
      ),
      orm(db)
        .update(e)
        .set({ crmReceivedPending: 0 })
        .where(sql`${owed} AND EXISTS (SELECT 1 FROM ${w} WHERE ${w.enquiryId} = ${e.id} AND ${w.type} = 'enquiry.received')`),
    ]);
    written += inserted?.rowsAffected ?? 0;
  }
}

/** The `enquiry.photos_added` event of a batch added later (its first photo's position). */
export function photosAddedEvent(enquiryId: number, photosFrom: number, now: number) {
  return {
    enquiryId,
    type: 'enquiry.photos_added' as const,
    eventId: newEventId(),
    photosFrom,
    occurredAt: new Date(now).toISOString(),
    createdMs: now,
    nextAttemptMs: now,
  };
}

/**
 * The `enquiry.photos_added` event of photos a re-send handed over to the enquiry the SELECT
 * `enquiryId` yields (`target`: it had none, so they are 1…n), only when its `enquiry.received` event
 * has been sent or is being sent (a worker holds it: it may have read the photos already), once. While
 * that event waits, its body, built when it is sent, carries them; and a body built after this event
 * exists leaves them to it (webhookBody), so the CRM hears of each photo once.
 */
export function photosHandedOverEvent(enquiryId: SQL, now: number): SQL {
  const w = webhookEvents;
  return insertSelect(
    webhookEvents,
    {
      enquiryId: sql`target.id`,
      type: 'enquiry.photos_added',
      eventId: eventIdSql,
      photosFrom: 1,
      occurredAt: new Date(now).toISOString(),
      createdMs: now,
      nextAttemptMs: now,
    },
    sql`FROM (${enquiryId}) AS target
      WHERE EXISTS (SELECT 1 FROM ${w} WHERE ${w.enquiryId} = target.id AND ${w.type} = 'enquiry.received'
        AND (${w.status} <> 'pending' OR ${w.leaseOwner} IS NOT NULL))
      ON CONFLICT DO NOTHING`,
  );
}

/**
 * The `claim.updated` event of the change of stage made on the site (the staff page, or the homeowner booking a survey; `changeId`: its id,
 * in the same write; written `now`), for an accepted enquiry. A change the CRM itself sent is never echoed back to it.
 */
export function claimUpdatedEvent(enquiryId: number, changeId: SQL, now: number): SQL {
  const c = claimStageChanges;
  return insertSelect(
    webhookEvents,
    {
      enquiryId: sql`${enquiryId}`,
      type: 'claim.updated',
      eventId: eventIdSql,
      stageChangeId: sql`${c.id}`,
      occurredAt: sql`${c.changedAt}`,
      createdMs: now,
      nextAttemptMs: now,
    },
    sql`FROM ${c} WHERE ${c.id} = ${changeId} AND ${c.enquiryId} = ${enquiryId} AND ${c.source} <> 'crm'
      AND EXISTS (SELECT 1 FROM ${enquiries} WHERE ${enquiries.id} = ${enquiryId} AND ${enquiries.disposition} = 'accepted')
      ON CONFLICT DO NOTHING`,
  );
}

/**
 * The `claim.drying_recorded` event of a visit the site's staff page just recorded (`visitId`, in the
 * same write), for an accepted enquiry. A visit the CRM itself sent is never echoed back to it.
 */
export function dryingRecordedEvent(enquiryId: number, visitId: number, now: number): SQL {
  const v = dryingVisits;
  return insertSelect(
    webhookEvents,
    {
      enquiryId: sql`${enquiryId}`,
      type: 'claim.drying_recorded',
      eventId: eventIdSql,
      dryingVisitId: sql`${v.id}`,
      occurredAt: sql`${v.recordedAt}`,
      createdMs: now,
      nextAttemptMs: now,
    },
    sql`FROM ${v} WHERE ${v.id} = ${visitId} AND ${v.enquiryId} = ${enquiryId} AND ${v.source} = 'staff'
      AND EXISTS (SELECT 1 FROM ${enquiries} WHERE ${enquiries.id} = ${enquiryId} AND ${enquiries.disposition} = 'accepted')
      ON CONFLICT DO NOTHING`,
  );
}

const APPOINTMENT_EVENT_TYPES = {
  booked: 'appointment.booked',
  moved: 'appointment.moved',
  cancelled: 'appointment.cancelled',
  'no-access': 'appointment.no_access',
} as const satisfies Record<SurveyAppointmentAction, string>;

/**
 * The `appointment.*` event of a change of the claim's survey visit made on the site (`changeId`: its
 * id, in the same write; written `now`), for an accepted enquiry. A change the CRM sent is never echoed back.
 */
export function appointmentEvent(enquiryId: number, action: SurveyAppointmentAction, changeId: SQL, now: number): SQL {
  const change = surveyAppointmentChanges;
  return insertSelect(
    webhookEvents,
    {
      enquiryId: sql`${enquiryId}`,
      type: APPOINTMENT_EVENT_TYPES[action],
      eventId: eventIdSql,
      appointmentChangeId: sql`${change.id}`,
      occurredAt: new Date(now).toISOString(),
      createdMs: now,
      nextAttemptMs: now,
    },
    sql`FROM ${change} WHERE ${change.id} = ${changeId} AND ${change.enquiryId} = ${enquiryId} AND ${change.madeBy} <> 'crm'
      AND EXISTS (SELECT 1 FROM ${enquiries} WHERE ${enquiries.id} = ${enquiryId} AND ${enquiries.disposition} = 'accepted')
      ON CONFLICT DO NOTHING`,
  );
}
