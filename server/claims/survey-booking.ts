import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, asc, count, desc, eq, gte, inArray, lt, lte } from 'drizzle-orm';
import type { ClaimStage } from '@/lib/claim-stages';
import {
  bookingClosesAt,
  DEFAULT_WINDOW_CAPACITY,
  isOffered,
  parseLocalDate,
  offeredDates,
  reminderDueAt,
  SURVEY_WINDOWS,
  windowSpan,
  windowWords,
  type SurveyWindow,
  type SurveyWindowName,
} from '@/lib/survey-windows';
import type { WorkingHours } from '@/lib/working-time';
import { insertSelect, orm, type BuiltQuery } from '@/server/base/db';
import {
  claimStageChanges,
  enquiries,
  enquiryNotifications,
  surveyAppointmentChanges,
  surveyAppointments as a,
  surveyBlocks,
  surveyCapacity,
  type SurveyAppointmentAction,
} from '@/server/base/db-schema';
import { sql } from 'drizzle-orm';
import { recordStageChange } from '@/server/claims/claim-status';
import { appointmentEvent } from '@/server/crm/outgoing-events';

/**
 * The survey visits a homeowner books on the status page. A window takes the company's capacity of
 * visits (the latest `survey_capacity` from a date on, else DEFAULT_WINDOW_CAPACITY) unless the day or
 * the window is blocked. A booking is one INSERT … SELECT that counts the window's booked visits in the
 * same statement, so SQLite's write lock gives the last place to exactly one of any number of people
 * pressing at once; a claim has one booked visit (a partial unique index); a form token books once.
 */

/** The stages a homeowner may book a survey from. */
export const BOOKABLE_STAGES: readonly ClaimStage[] = ['received', 'contacted'];

export type Appointment = { id: number; uid: string; date: string; window: SurveyWindowName; sequence: number; words: string };

/** How often a homeowner may move a visit; past it, the phone. */
export const SURVEY_MOVES_MAX = 5;

/** A window offered now, with the places left in it. */
export type FreeWindow = SurveyWindow & { free: number; words: string };

const capacitySql = (slot: SurveyWindow) =>
  sql`coalesce((SELECT ${surveyCapacity.capacity} FROM ${surveyCapacity}
    WHERE ${surveyCapacity.fromDate} <= ${slot.date} AND (${surveyCapacity.window} IS NULL OR ${surveyCapacity.window} = ${slot.window})
    ORDER BY ${surveyCapacity.fromDate} DESC, ${surveyCapacity.id} DESC LIMIT 1), ${DEFAULT_WINDOW_CAPACITY})`;

const blockedSql = (slot: SurveyWindow) =>
  sql`EXISTS (SELECT 1 FROM ${surveyBlocks} WHERE ${surveyBlocks.date} = ${slot.date}
    AND (${surveyBlocks.window} IS NULL OR ${surveyBlocks.window} = ${slot.window}))`;

const bookedInSql = (slot: SurveyWindow) =>
  sql`(SELECT count(*) FROM ${a} WHERE ${a.date} = ${slot.date} AND ${a.window} = ${slot.window} AND ${a.status} = 'booked')`;

/** The capacity of a window on a date from the rows that apply, latest first. */
function capacityOn(slot: SurveyWindow, rows: readonly { fromDate: string; window: SurveyWindowName | null; capacity: number }[]) {
  return (
    rows.find((row) => row.fromDate <= slot.date && (row.window === null || row.window === slot.window))?.capacity ??
    DEFAULT_WINDOW_CAPACITY
  );
}

/** The windows offered at `now` with room left, day by day, morning before afternoon. */
export async function freeWindows(db: Client, now: number, hours: WorkingHours): Promise<FreeWindow[]> {
  return (await windowStandings(db, offeredDates(now, hours)))
    .filter((standing) => standing.left > 0)
    .map(({ date, window, left }) => ({ date, window, free: left, words: windowWords({ date, window }) }));
}

const appointmentColumns = { id: a.id, uid: a.uid, date: a.date, window: a.window, sequence: a.sequence };
const withWords = (row: Omit<Appointment, 'words'>): Appointment => ({ ...row, words: windowWords(row) });

/** The claim's booked visit, or null. */
export async function bookedAppointment(db: Client, enquiryId: number): Promise<Appointment | null> {
  const [row] = await orm(db)
    .select(appointmentColumns)
    .from(a)
    .where(and(eq(a.enquiryId, enquiryId), eq(a.status, 'booked')))
    .orderBy(asc(a.id));
  return row ? withWords(row) : null;
}

type VisitChange = {
  enquiryId: number;
  appointmentId: number;
  action: SurveyAppointmentAction;
  madeBy: 'customer' | 'staff' | 'crm';
  /** When the visit's reminder is due (booked or moved); null drops it (cancelled, missed). */
  reminderDueMs: number | null;
  tellCrm: boolean;
  now: number;
};

/**
 * What a change of the claim's visit writes in the batch of its change of stage (the enquiry's highest
 * id there): its record, with the window and SEQUENCE it left the visit at; the CRM's `appointment.*`
 * event when the CRM is told; the reminder still waiting dropped, and for a visit booked or moved its
 * own queued, due then (an outbox job of the change, so a restart keeps it and it goes once).
 */
function visitChangeWrites(db: Client, change: VisitChange): BuiltQuery[] {
  const { enquiryId, appointmentId, now } = change;
  const record = surveyAppointmentChanges;
  const jobs = enquiryNotifications;
  const stageChange = sql`(SELECT max(${claimStageChanges.id}) FROM ${claimStageChanges} WHERE ${claimStageChanges.enquiryId} = ${enquiryId})`;
  const recorded = sql`(SELECT max(${record.id}) FROM ${record} WHERE ${record.appointmentId} = ${appointmentId})`;
  return [
    orm(db).run(
      insertSelect(
        record,
        {
          appointmentId: sql`${a.id}`,
          enquiryId: sql`${a.enquiryId}`,
          action: change.action,
          date: sql`${a.date}`,
          window: sql`${a.window}`,
          sequence: sql`${a.sequence}`,
          madeBy: change.madeBy,
          changedMs: now,
        },
        sql`FROM ${a} WHERE ${a.id} = ${appointmentId}`,
      ),
    ),
    ...(change.tellCrm && change.madeBy !== 'crm' ? [orm(db).run(appointmentEvent(enquiryId, change.action, recorded, now))] : []),
    orm(db)
      .delete(jobs)
      .where(and(eq(jobs.enquiryId, enquiryId), eq(jobs.kind, 'reminder'), eq(jobs.status, 'pending'))),
    ...(change.reminderDueMs === null
      ? []
      : [
          orm(db).run(
            insertSelect(
              jobs,
              {
                enquiryId: sql`${enquiries.id}`,
                kind: 'reminder',
                status: 'pending',
                nextAttemptMs: change.reminderDueMs,
                stageChangeId: stageChange,
              },
              sql`FROM ${enquiries} WHERE ${enquiries.id} = ${enquiryId} AND ${enquiries.disposition} = 'accepted'`,
            ),
          ),
        ]),
  ];
}

/** What a booking came to: booked (or booked already by this form), or why not. */
export type BookingOutcome =
  | { kind: 'booked'; appointment: Appointment }
  | { kind: 'refused'; reason: 'not-offered' | 'blocked' | 'full' | 'already-booked' | 'stage' };

const isUniqueViolation = (error: unknown) => error instanceof Error && /UNIQUE constraint failed/.test(error.message);

export type BookingRequest = {
  enquiryId: number;
  stage: ClaimStage;
  slot: SurveyWindow;
  formToken: string;
  now: number;
  hours: WorkingHours;
  tellCrm: boolean;
};

/**
 * Books the survey in a window for a claim, and moves the claim to "Survey booked" with the window as
 * its next date through the one stage-change path (the customer's e-mail queued once, the CRM told).
 * The same form posted again is the same booking.
 */
export async function bookSurvey(db: Client, request: BookingRequest): Promise<BookingOutcome> {
  const { enquiryId, slot, formToken, now } = request;
  const [already] = await orm(db)
    .select({ ...appointmentColumns, enquiryId: a.enquiryId })
    .from(a)
    .where(eq(a.formToken, formToken));
  if (already) {
    const { enquiryId: bookedFor, ...appointment } = already;
    return bookedFor === enquiryId ? { kind: 'booked', appointment: withWords(appointment) } : { kind: 'refused', reason: 'stage' };
  }
  if (!BOOKABLE_STAGES.includes(request.stage)) {
    return (await bookedAppointment(db, enquiryId)) ? { kind: 'refused', reason: 'already-booked' } : { kind: 'refused', reason: 'stage' };
  }
  if (!isOffered(slot, now, request.hours)) return { kind: 'refused', reason: 'not-offered' };
  const row = {
    enquiryId,
    uid: `${randomUUID()}@survey.homecare-web.invalid`,
    date: slot.date,
    window: slot.window,
    status: 'booked',
    sequence: 0,
    bookedBy: 'customer',
    formToken,
    createdMs: now,
    updatedMs: now,
  } as const;
  let inserted: number;
  try {
    const result = await orm(db).run(
      insertSelect(a, row, sql`WHERE NOT ${blockedSql(slot)} AND ${bookedInSql(slot)} < ${capacitySql(slot)}`),
    );
    inserted = result.rowsAffected;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another tab booked this claim, or this very form was posted twice at once.
    return bookSurvey(db, { ...request, stage: 'survey-booked' });
  }
  if (inserted === 0) {
    const [blocked] = await orm(db).all<{ blocked: number }>(sql`SELECT ${blockedSql(slot)} AS blocked`);
    return { kind: 'refused', reason: blocked?.blocked ? 'blocked' : 'full' };
  }
  const appointment = (await bookedAppointment(db, enquiryId))!;
  try {
    await recordStageChange(
      db,
      enquiryId,
      {
        stage: 'survey-booked',
        waitingOn: 'us',
        nextDate: slot.date,
        note: `Survey visit: ${appointment.words}.`,
        tellCustomer: true,
        source: 'customer',
        tellCrm: request.tellCrm,
        alsoWrite: visitChangeWrites(db, {
          enquiryId,
          appointmentId: appointment.id,
          action: 'booked',
          madeBy: 'customer',
          reminderDueMs: reminderDueAt(slot, now, request.hours),
          tellCrm: request.tellCrm,
          now,
        }),
      },
      now,
    );
  } catch (error) {
    // The place goes back: a booking is the visit and the claim's stage together, or neither.
    await orm(db).delete(a).where(eq(a.id, appointment.id));
    throw error;
  }
  return { kind: 'booked', appointment };
}

/** The most visits a window can take, as the company sets it. */
export const WINDOW_CAPACITY_MAX = 20;
/** The longest reason a block keeps. */
export const BLOCK_REASON_MAX = 200;

/**
 * The company's capacity from a date on, for one window or both (the latest that applies wins). A CRM
 * event's (`eventId`) is set once: false when it was set before.
 */
export async function setWindowCapacity(
  db: Client,
  setting: {
    fromDate: string;
    window: SurveyWindowName | null;
    capacity: number;
    source: 'operator' | 'crm';
    now: number;
    eventId?: string;
  },
): Promise<boolean> {
  const inserted = await orm(db)
    .insert(surveyCapacity)
    .values({
      fromDate: setting.fromDate,
      window: setting.window,
      capacity: setting.capacity,
      source: setting.source,
      setMs: setting.now,
      eventId: setting.eventId ?? null,
    })
    .onConflictDoNothing();
  return inserted.rowsAffected > 0;
}

/**
 * A day, or one window of it, taken out of the offer; how many visits are booked in it, which stay booked
 * (the company moves them). A CRM event's (`eventId`) blocks once.
 */
export async function blockWindow(
  db: Client,
  block: { date: string; window: SurveyWindowName | null; reason: string; source: 'operator' | 'crm'; now: number; eventId?: string },
): Promise<{ applied: boolean; booked: number }> {
  const inserted = await orm(db)
    .insert(surveyBlocks)
    .values({
      date: block.date,
      window: block.window,
      reason: block.reason,
      source: block.source,
      createdMs: block.now,
      eventId: block.eventId ?? null,
    })
    .onConflictDoNothing();
  const [row] = await orm(db)
    .select({ n: count() })
    .from(a)
    .where(and(eq(a.date, block.date), eq(a.status, 'booked'), ...(block.window ? [eq(a.window, block.window)] : [])));
  return { applied: inserted.rowsAffected > 0, booked: row?.n ?? 0 };
}

/** A window as the company lists it: its capacity, visits booked, places left, and why it is blocked. */
export type WindowStanding = SurveyWindow & { capacity: number; booked: number; left: number; blocked: string | null };

/** Each window of the given working days, as it stands. */
export async function windowStandings(db: Client, dates: readonly string[]): Promise<WindowStanding[]> {
  if (dates.length === 0) return [];
  const last = [...dates].sort().at(-1)!;
  const [capacities, blocks, booked] = await Promise.all([
    orm(db)
      .select({ fromDate: surveyCapacity.fromDate, window: surveyCapacity.window, capacity: surveyCapacity.capacity })
      .from(surveyCapacity)
      .where(lte(surveyCapacity.fromDate, last))
      .orderBy(desc(surveyCapacity.fromDate), desc(surveyCapacity.id)),
    orm(db)
      .select({ date: surveyBlocks.date, window: surveyBlocks.window, reason: surveyBlocks.reason })
      .from(surveyBlocks)
      .where(inArray(surveyBlocks.date, [...dates]))
      .orderBy(asc(surveyBlocks.id)),
    orm(db)
      .select({ date: a.date, window: a.window, n: count() })
      .from(a)
      .where(and(inArray(a.date, [...dates]), eq(a.status, 'booked')))
      .groupBy(a.date, a.window),
  ]);
  return dates.flatMap((date) =>
    SURVEY_WINDOWS.map(({ name: window }) => {
      const slot = { date, window };
      const capacity = capacityOn(slot, capacities);
      const taken = booked.find((row) => row.date === date && row.window === window)?.n ?? 0;
      const blocked = blocks.find((block) => block.date === date && (block.window === null || block.window === window))?.reason ?? null;
      return { ...slot, capacity, booked: taken, left: blocked === null ? Math.max(0, capacity - taken) : 0, blocked };
    }),
  );
}

/** What a move or a cancellation came to: done (or done already), or why not. */
export type SurveyChangeOutcome =
  | { kind: 'moved' | 'cancelled'; appointment: Appointment }
  | { kind: 'refused'; reason: 'closed' | 'moves' | 'full' | 'not-offered' | 'blocked' | 'none' };

/** Whether a booked visit can still be changed on the site: until its day's booking closes (17:00 the working day before). */
export const changeableAt = (appointment: Appointment, now: number, hours: WorkingHours) =>
  bookingClosesAt(parseLocalDate(appointment.date)!, hours) > now;

/** `madeBy`: the homeowner on the status page (the default), or the company (its staff page, its CRM). */
type ChangeRequest = {
  enquiryId: number;
  now: number;
  hours: WorkingHours;
  tellCrm: boolean;
  madeBy?: 'customer' | 'staff' | 'crm';
  /** The CRM event that made the change: kept with the change of stage, so it applies once. */
  eventId?: string;
};

/**
 * Moves the claim's booked visit to another window offered now, in one UPDATE that counts the new
 * window's places (as a booking does), raising its SEQUENCE; the claim's "Survey booked" is recorded
 * again with the new date, so the customer's e-mail carries the moved invite (same UID). The homeowner
 * moves until the visit's day closes, at most SURVEY_MOVES_MAX times; the company (its staff page, its
 * CRM) at any time, without spending the homeowner's moves. Moved already to that window: the same
 * outcome, nothing recorded twice.
 */
export async function moveSurvey(db: Client, request: ChangeRequest & { slot: SurveyWindow }): Promise<SurveyChangeOutcome> {
  const { enquiryId, slot, now, hours } = request;
  const madeBy = request.madeBy ?? 'customer';
  const byCustomer = madeBy === 'customer';
  const current = await bookedAppointment(db, enquiryId);
  if (!current) return { kind: 'refused', reason: 'none' };
  if (current.date === slot.date && current.window === slot.window) return { kind: 'moved', appointment: current };
  if (byCustomer && !changeableAt(current, now, hours)) return { kind: 'refused', reason: 'closed' };
  if (!isOffered(slot, now, hours)) return { kind: 'refused', reason: 'not-offered' };
  const moved = await orm(db)
    .update(a)
    .set({
      date: slot.date,
      window: slot.window,
      sequence: sql`${a.sequence} + 1`,
      ...(byCustomer ? { moves: sql`${a.moves} + 1` } : {}),
      updatedMs: now,
    })
    .where(
      and(
        eq(a.id, current.id),
        eq(a.status, 'booked'),
        byCustomer ? lt(a.moves, SURVEY_MOVES_MAX) : undefined,
        sql`NOT ${blockedSql(slot)}`,
        sql`${bookedInSql(slot)} < ${capacitySql(slot)}`,
      ),
    );
  if (moved.rowsAffected === 0) {
    const [row] = await orm(db).select({ moves: a.moves }).from(a).where(eq(a.id, current.id));
    if (byCustomer && (row?.moves ?? 0) >= SURVEY_MOVES_MAX) return { kind: 'refused', reason: 'moves' };
    const [blocked] = await orm(db).all<{ blocked: number }>(sql`SELECT ${blockedSql(slot)} AS blocked`);
    return { kind: 'refused', reason: blocked?.blocked ? 'blocked' : 'full' };
  }
  const appointment = (await bookedAppointment(db, enquiryId))!;
  await recordStageChange(
    db,
    enquiryId,
    {
      stage: 'survey-booked',
      waitingOn: 'us',
      nextDate: slot.date,
      note: byCustomer ? `Survey visit moved to ${appointment.words}.` : `We have moved your survey visit to ${appointment.words}.`,
      tellCustomer: true,
      source: madeBy,
      eventId: request.eventId,
      tellCrm: request.tellCrm,
      alsoWrite: visitChangeWrites(db, {
        enquiryId,
        appointmentId: appointment.id,
        action: 'moved',
        madeBy,
        reminderDueMs: reminderDueAt(slot, now, hours),
        tellCrm: request.tellCrm,
        now,
      }),
    },
    now,
  );
  return { kind: 'moved', appointment };
}

/**
 * Cancels the claim's booked visit: its place goes back to the window, its SEQUENCE is raised, and the
 * claim goes back to "Contacted", waiting on the customer to book again; the customer's e-mail carries
 * the invite's cancellation. The homeowner cancels until the visit's day closes; the company at any
 * time. Cancelled already: the same outcome, nothing recorded twice.
 */
export async function cancelSurvey(db: Client, request: ChangeRequest): Promise<SurveyChangeOutcome> {
  const { enquiryId, now, hours } = request;
  const madeBy = request.madeBy ?? 'customer';
  const current = await bookedAppointment(db, enquiryId);
  if (!current) {
    const last = await lastCancelled(db, enquiryId);
    return last ? { kind: 'cancelled', appointment: last } : { kind: 'refused', reason: 'none' };
  }
  if (madeBy === 'customer' && !changeableAt(current, now, hours)) return { kind: 'refused', reason: 'closed' };
  const cancelled = await orm(db)
    .update(a)
    .set({ status: 'cancelled', sequence: sql`${a.sequence} + 1`, updatedMs: now })
    .where(and(eq(a.id, current.id), eq(a.status, 'booked')));
  if (cancelled.rowsAffected === 0) return cancelSurvey(db, request);
  const note =
    madeBy === 'customer'
      ? `Survey visit on ${current.words} cancelled. Book another time on the claim's page, or call us.`
      : `We have cancelled the survey visit on ${current.words}. Please book another time on the claim's page, or call us.`;
  await recordStageChange(
    db,
    enquiryId,
    {
      stage: 'contacted',
      waitingOn: 'customer',
      nextDate: null,
      note,
      tellCustomer: true,
      source: madeBy,
      eventId: request.eventId,
      tellCrm: request.tellCrm,
      alsoWrite: visitChangeWrites(db, {
        enquiryId,
        appointmentId: current.id,
        action: 'cancelled',
        madeBy,
        reminderDueMs: null,
        tellCrm: request.tellCrm,
        now,
      }),
    },
    now,
  );
  return { kind: 'cancelled', appointment: { ...current, sequence: current.sequence + 1 } };
}

/**
 * The company's surveyor found nobody in: the visit ends as "no access" (its place is not given back:
 * the window has passed or is under way), and the claim goes back to "Contacted", waiting on the
 * customer, whose e-mail asks them to book again. No visit booked: `none`.
 */
export async function recordNoAccess(
  db: Client,
  request: { enquiryId: number; now: number; tellCrm: boolean; madeBy: 'staff' | 'crm'; eventId?: string },
): Promise<{ kind: 'recorded'; appointment: Appointment } | { kind: 'refused'; reason: 'none' }> {
  const { enquiryId, now } = request;
  const current = await bookedAppointment(db, enquiryId);
  if (!current) return { kind: 'refused', reason: 'none' };
  const missed = await orm(db)
    .update(a)
    .set({ status: 'no-access', sequence: sql`${a.sequence} + 1`, updatedMs: now })
    .where(and(eq(a.id, current.id), eq(a.status, 'booked')));
  if (missed.rowsAffected === 0) return recordNoAccess(db, request);
  await recordStageChange(
    db,
    enquiryId,
    {
      stage: 'contacted',
      waitingOn: 'customer',
      nextDate: null,
      note: `Our surveyor could not get in on ${current.words}. Please book another time on the claim's page, or call us.`,
      tellCustomer: true,
      source: request.madeBy,
      eventId: request.eventId,
      tellCrm: request.tellCrm,
      alsoWrite: visitChangeWrites(db, {
        enquiryId,
        appointmentId: current.id,
        action: 'no-access',
        madeBy: request.madeBy,
        reminderDueMs: null,
        tellCrm: request.tellCrm,
        now,
      }),
    },
    now,
  );
  return { kind: 'recorded', appointment: { ...current, sequence: current.sequence + 1 } };
}

/** A visit on the company's day list: the claim, the window and where the surveyor goes. */
export type DayVisit = {
  reference: string;
  date: string;
  window: SurveyWindowName;
  words: string;
  address: string | null;
  postcode: string | null;
};

/** The visits booked on these dates, by date and window, with the addresses the claims gave. */
export async function visitsOn(db: Client, dates: readonly string[]): Promise<DayVisit[]> {
  if (dates.length === 0) return [];
  const rows = await orm(db)
    .select({
      id: enquiries.id,
      reference: enquiries.reference,
      date: a.date,
      window: a.window,
      address: enquiries.propertyAddress,
      postcode: enquiries.postcode,
    })
    .from(a)
    .innerJoin(enquiries, eq(enquiries.id, a.enquiryId))
    .where(and(inArray(a.date, [...dates]), eq(a.status, 'booked')))
    .orderBy(asc(a.date), asc(a.window), asc(a.id));
  return rows.map((row) => ({
    reference: row.reference ?? `#${row.id}`,
    date: row.date,
    window: row.window,
    words: windowWords(row),
    address: row.address,
    postcode: row.postcode,
  }));
}

/** The claim's visit cancelled last, or null. */
async function lastCancelled(db: Client, enquiryId: number): Promise<Appointment | null> {
  const [row] = await orm(db)
    .select(appointmentColumns)
    .from(a)
    .where(and(eq(a.enquiryId, enquiryId), eq(a.status, 'cancelled')))
    .orderBy(desc(a.updatedMs), desc(a.id))
    .limit(1);
  return row ? withWords(row) : null;
}

/** The visit a change of stage at `changedMs` cancelled, for the customer's e-mail about it; null for any other change. */
export async function appointmentCancelledAt(db: Client, enquiryId: number, changedMs: number): Promise<Appointment | null> {
  const [row] = await orm(db)
    .select(appointmentColumns)
    .from(a)
    .where(and(eq(a.enquiryId, enquiryId), eq(a.status, 'cancelled'), eq(a.updatedMs, changedMs)))
    .limit(1);
  return row ? withWords(row) : null;
}

/**
 * One change of the claim's visit as the CRM's `appointment.*` event tells of it, built when the event
 * is sent: the window it left the visit at (its date, name, words and times in UTC), the invite's UID
 * and SEQUENCE, who made it and when. Null when the change is gone (the claim erased).
 */
export async function appointmentChangeForCrm(db: Client, enquiryId: number, changeId: number | null, hours: WorkingHours) {
  if (changeId === null) return null;
  const record = surveyAppointmentChanges;
  const [row] = await orm(db)
    .select({
      date: record.date,
      window: record.window,
      sequence: record.sequence,
      madeBy: record.madeBy,
      changedMs: record.changedMs,
      uid: a.uid,
    })
    .from(record)
    .innerJoin(a, eq(a.id, record.appointmentId))
    .where(and(eq(record.id, changeId), eq(record.enquiryId, enquiryId)));
  if (!row) return null;
  const span = windowSpan(row, hours);
  return {
    date: row.date,
    window: row.window,
    windowWords: windowWords(row),
    startsAt: new Date(span.startMs).toISOString(),
    endsAt: new Date(span.endMs).toISOString(),
    uid: row.uid,
    sequence: row.sequence,
    madeBy: row.madeBy,
    changedAt: new Date(row.changedMs).toISOString(),
  };
}

/** The changes of survey visits made in a period, as the company's digest counts them. */
export type SurveyVisitCounts = { bookedByHomeowners: number; moved: number; cancelled: number; noAccess: number };

/** The visits homeowners booked in [fromMs, toMs), and the visits moved, cancelled and found with no access then. */
export async function surveyVisitCounts(db: Client, fromMs: number, toMs: number): Promise<SurveyVisitCounts> {
  const record = surveyAppointmentChanges;
  const rows = await orm(db)
    .select({ action: record.action, madeBy: record.madeBy, n: count() })
    .from(record)
    .where(and(gte(record.changedMs, fromMs), lt(record.changedMs, toMs)))
    .groupBy(record.action, record.madeBy);
  const total = (keep: (row: (typeof rows)[number]) => boolean) => rows.filter(keep).reduce((sum, row) => sum + row.n, 0);
  return {
    bookedByHomeowners: total((row) => row.action === 'booked' && row.madeBy === 'customer'),
    moved: total((row) => row.action === 'moved'),
    cancelled: total((row) => row.action === 'cancelled'),
    noAccess: total((row) => row.action === 'no-access'),
  };
}
