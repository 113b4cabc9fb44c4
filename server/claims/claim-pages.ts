import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, eq } from 'drizzle-orm';
import { deadLinkText, trackPage } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { staffVisitText } from '@/content/drying';
import {
  CONFIRMED_BY_MAX,
  NOTE_MAX,
  isClaimStage,
  isWaitingOn,
  stageWords,
  type ClaimStatus,
  type StaffUpdateState,
  type TrackState,
} from '@/lib/claim-stages';
import { isCalendarDate, normaliseContactText } from '@/lib/contact-fields';
import { DRYING_LIMITS, changesMachine, type StoredMachine } from '@/lib/drying';
import { CONFIRM_WET_FIELD, machineFieldName, readingFieldName, type StaffVisitState } from '@/lib/drying-form';
import { enquiryIdOf, isEnquiryReference } from '@/lib/enquiry-reference';
import { clientAddress } from '@/server/edge/client-address.mjs';
import { claimOfSession, claimSessionValue, recordLinkUse, type ClaimLinkPurpose } from '@/server/claims/claim-links';
import { claimStatus, lookUpClaim, recordStageChange } from '@/server/claims/claim-status';
import { driedRefusalOf, locationWords, machinesOf, recordDryingVisit } from '@/server/claims/drying/record';
import { reopenIfWet } from '@/server/claims/drying/reopen';
import { visitOfForm } from '@/server/claims/drying/visit-form';
import { config } from '@/server/base/config.mjs';
import { getDb, orm } from '@/server/base/db';
import { claimStageChanges, dryingReadings, dryingVisits, enquiries } from '@/server/base/db-schema';
import { outboxWritten } from '@/server/ledger/outbox';
import { rateLimitKey } from '@/server/edge/client-address.mjs';
import { createRateLimiter, type RateLimiter } from '@/server/base/rate-limiter';
import { wallClock } from '@/lib/zone-clock';
import { randomBytes } from 'node:crypto';

/** A new form token for the staff page's Save: single use, recorded with the change it saved. */
export const newFormToken = () => randomBytes(18).toString('base64url');
const FORM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

/** Failed look-ups a client may make in an hour before it waits; a correct one from another client is unaffected. */
export const FAILED_LOOK_UPS = { limit: 10, windowMs: 60 * 60_000 } as const;

export type ClaimPageDeps = {
  db?: () => Promise<Client>;
  failedLookUps?: RateLimiter;
  now?: () => number;
  /** Whether a change saved here is told to the company's CRM (default: when CRM_WEBHOOK_URL is set). */
  tellCrm?: boolean;
};

/** A stored time on the London clock: "14:02". */
const londonTime = (iso: string) => {
  const clock = wallClock(Date.parse(iso), 'Europe/London');
  return `${String(clock.hour).padStart(2, '0')}:${String(clock.minute).padStart(2, '0')}`;
};
const DAY_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});
/** A stored time as a day and time on the London clock: "3 Dec, 10:00". */
const londonDayTime = (iso: string) => DAY_TIME.format(new Date(iso));

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** The claim pages' server side: the look-up, the status by link, and the staff page's Save. */
export function createClaimPages(deps: ClaimPageDeps = {}) {
  const db = deps.db ?? getDb;
  const now = deps.now ?? Date.now;
  const failedLookUps = deps.failedLookUps ?? createRateLimiter({ ...FAILED_LOOK_UPS, now });

  async function lookUp(form: FormData, headers: Headers): Promise<TrackState> {
    const values = { reference: text(form, 'reference').slice(0, 40), email: text(form, 'email').slice(0, 320) };
    const refused = (message: string): TrackState => ({ kind: 'refused', message, values });
    const key = rateLimitKey(clientAddress(headers));
    const budget = failedLookUps.peek(key);
    if (!budget.allowed) return refused(trackPage.tooMany(Math.max(1, Math.ceil(budget.retryAfterSeconds / 60))));
    const reference = values.reference.trim().toUpperCase();
    const email = values.email.trim();
    if (!reference || !email) return refused(trackPage.incomplete);
    try {
      const client = await db();
      const id = await lookUpClaim(client, reference, email);
      const status = id === null ? null : await claimStatus(client, id);
      if (status) return { kind: 'found', status };
    } catch (error) {
      console.error('[claims] Could not look up a claim:', error instanceof Error ? error.message : error);
      return refused(trackPage.unavailable);
    }
    failedLookUps.hit(key);
    return refused(trackPage.notFound);
  }

  const claimOfPage = async (client: Client, purpose: ClaimLinkPurpose, reference: string, session: string | undefined) =>
    claimOfSession(client, purpose, reference, session, now());

  /** A new session for a claim's page (the look-up found it): the cookie's value, or null. */
  async function sessionFor(purpose: ClaimLinkPurpose, reference: string): Promise<{ enquiryId: number; value: string } | null> {
    if (!isEnquiryReference(reference)) return null;
    const enquiryId = enquiryIdOf(reference);
    const value = await claimSessionValue(await db(), purpose, enquiryId, now());
    return value ? { enquiryId, value } : null;
  }

  /** The status page by its cookie: the claim's status (its "Add photos" form posts under the page, by the same cookie). */
  async function statusBySession(reference: string, session: string | undefined): Promise<{ status: ClaimStatus } | null> {
    const client = await db();
    const id = await claimOfPage(client, 'status', reference, session);
    if (id === null) return null;
    const status = await claimStatus(client, id);
    if (!status) return null;
    await recordLinkUse(client, id, 'status', 'opened', now());
    return { status };
  }

  /** The staff page's claim, with its running machines as the visit form names them (by stored id). */
  async function staffClaim(
    reference: string,
    session: string | undefined,
  ): Promise<(ClaimStatus & { runningMachines: (StoredMachine & { id: number })[] }) | null> {
    const client = await db();
    const id = await claimOfPage(client, 'update', reference, session);
    if (id === null) return null;
    await recordLinkUse(client, id, 'update', 'opened', now());
    const status = await claimStatus(client, id);
    if (!status) return null;
    return { ...status, runningMachines: (await machinesOf(client, id)).filter((machine) => machine.off === null) };
  }

  /**
   * The staff page's Save. Its form token makes it once-only: the change is recorded under it, so the
   * same token sent again (a double press, the Back button and another change) records nothing, sends
   * no second e-mail, and is answered with what the first send saved and when.
   */
  async function saveUpdate(reference: string, session: string | undefined, form: FormData): Promise<StaffUpdateState> {
    const formToken = text(form, 'formToken');
    const values: Record<string, string> = Object.fromEntries(
      ['stage', 'nextDate', 'waitingOn', 'note', 'quiet', 'confirmedBy', 'formToken'].map((name) => [name, text(form, name)]),
    );
    const client = await db();
    const id = await claimOfPage(client, 'update', reference, session);
    if (id === null) return { kind: 'refused', message: deadLinkText.update, errors: {}, values };
    const eventId = `staff-save:${id}:${formToken}`;
    const alreadySent = async (): Promise<StaffUpdateState | null> => {
      const [first] = await orm(client)
        .select({ stage: claimStageChanges.stage, at: claimStageChanges.changedAt })
        .from(claimStageChanges)
        .where(and(eq(claimStageChanges.eventId, eventId), eq(claimStageChanges.enquiryId, id)));
      if (!first) return null;
      return {
        kind: 'refused',
        message: staffPage.alreadySent(londonTime(first.at), staffPage.firstStage(stageWords(first.stage))),
        errors: {},
        values,
      };
    };
    if (FORM_TOKEN_PATTERN.test(formToken)) {
      const sent = await alreadySent();
      if (sent) return sent;
    }
    const note = normaliseContactText(values.note ?? '', true);
    const nextDate = (values.nextDate ?? '').trim();
    const errors: Extract<StaffUpdateState, { kind: 'refused' }>['errors'] = {};
    if (!isClaimStage(values.stage)) errors.stage = staffPage.badStage;
    if (nextDate && !isCalendarDate(nextDate)) errors.nextDate = staffPage.badDate;
    if (note.length > NOTE_MAX) errors.note = staffPage.noteTooLong;
    const confirmedBy = normaliseContactText(values.confirmedBy ?? '', false).trim();
    if (values.stage === 'dried' && !confirmedBy) errors.confirmedBy = staffPage.confirmedByMissing;
    if (values.stage === 'dried' && confirmedBy.length > CONFIRMED_BY_MAX) errors.confirmedBy = staffPage.confirmedByTooLong;
    const notDried = values.stage === 'dried' ? await driedRefusalOf(client, id) : null;
    if (notDried)
      errors.stage = notDried.kind === 'no-readings' ? staffPage.noDryingReadings : staffPage.notDried(locationWords(notDried.location));
    if (!isClaimStage(values.stage) || Object.keys(errors).length > 0)
      return { kind: 'refused', message: staffPage.invalid, errors, values };
    if (!FORM_TOKEN_PATTERN.test(formToken)) return { kind: 'refused', message: staffPage.reload, errors: {}, values };
    const outcome = await recordStageChange(
      client,
      id,
      {
        stage: values.stage,
        waitingOn: isWaitingOn(values.waitingOn) ? values.waitingOn : null,
        nextDate: nextDate || null,
        note: note || null,
        tellCustomer: values.quiet !== 'on',
        source: 'staff',
        eventId,
        tellCrm: deps.tellCrm ?? config().enquiries.tellCrm,
        confirmedBy: values.stage === 'dried' ? confirmedBy : null,
      },
      now(),
    );
    outboxWritten();
    // The same token sent twice at once: the other send saved it.
    if (outcome === 'already-applied') return (await alreadySent()) ?? { kind: 'refused', message: staffPage.reload, errors: {}, values };
    await recordLinkUse(client, id, 'update', 'saved', now());
    const shown = outcome === 'late' ? (await claimStatus(client, id))?.stage : undefined;
    return {
      kind: 'saved',
      message: shown ? staffPage.savedBehind(stageWords(values.stage), stageWords(shown)) : staffPage.saved(stageWords(values.stage)),
      formToken: newFormToken(),
    };
  }

  /**
   * The staff page's "Record a visit": one visit of the claim's drying record, checked by the same
   * rules as the CRM's event, recorded once per form token (sent again, it is answered with what the
   * first send recorded and when). Machines already recorded change only where their row says so. On a
   * claim at `dried`, a reading above its goal is recorded only once confirmed (`confirmWet`), and moves
   * the claim back to drying.
   */
  async function recordVisit(reference: string, session: string | undefined, form: FormData): Promise<StaffVisitState> {
    const values = Object.fromEntries([...form.entries()].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
    const refused = (message: string, errors: Record<string, string> = {}): StaffVisitState => ({
      kind: 'refused',
      message,
      errors,
      values,
    });
    const client = await db();
    const id = await claimOfPage(client, 'update', reference, session);
    if (id === null) return refused(deadLinkText.update);
    const formToken = text(form, 'formToken');
    if (!FORM_TOKEN_PATTERN.test(formToken)) return refused(staffPage.reload);
    const eventId = `staff-visit:${id}:${formToken}`;
    const alreadySent = async (): Promise<StaffVisitState | null> => {
      const [first] = await orm(client)
        .select({ id: dryingVisits.id, visitAt: dryingVisits.visitAt, recordedAt: dryingVisits.recordedAt })
        .from(dryingVisits)
        .where(and(eq(dryingVisits.eventId, eventId), eq(dryingVisits.enquiryId, id)));
      if (!first) return null;
      const [readings] = await orm(client).select({ n: count() }).from(dryingReadings).where(eq(dryingReadings.visitId, first.id));
      const what = staffVisitText.firstVisit(londonDayTime(first.visitAt), readings?.n ?? 0);
      return refused(staffPage.alreadySent(londonTime(first.recordedAt), what));
    };
    const sent = await alreadySent();
    if (sent) return sent;
    const [claim] = await orm(client).select({ receivedMs: enquiries.receivedMs }).from(enquiries).where(eq(enquiries.id, id));
    const parsed = visitOfForm(form, reference, { now: now(), receivedMs: claim?.receivedMs ?? now() });
    if (!parsed.ok) return refused(parsed.message, parsed.errors);
    const machines = new Map((await machinesOf(client, id)).map((machine) => [machine.id, machine]));
    if (parsed.changes.some((change) => !machines.has(change.id))) return refused(staffVisitText.unknownMachine);
    const offErrors = Object.fromEntries(
      parsed.changes
        .filter((change) => change.off !== null && Date.parse(change.off) < Date.parse(machines.get(change.id)!.on))
        .map((change) => [
          machineFieldName(change.row, 'off'),
          staffVisitText.fieldError(staffVisitText.machineLabels.off, 'must not be before it was switched on'),
        ]),
    );
    if (Object.keys(offErrors).length > 0) return refused(staffVisitText.invalid, offErrors);
    const wetRows = parsed.visit.readings.flatMap((reading, index) => (reading.value > reading.goal ? [index] : []));
    if (wetRows.length > 0 && form.get(CONFIRM_WET_FIELD) !== 'on' && (await claimStatus(client, id))?.stage === 'dried')
      return refused(staffVisitText.confirmWetNeeded, {
        [CONFIRM_WET_FIELD]: staffVisitText.confirmWetNeeded,
        ...Object.fromEntries(
          wetRows.map((index) => [
            readingFieldName(parsed.readingRows[index]!, 'value'),
            staffVisitText.wetWarning(String(parsed.visit.readings[index]!.goal)),
          ]),
        ),
      });
    const tellCrm = deps.tellCrm ?? config().enquiries.tellCrm;
    const outcome = await recordDryingVisit(client, id, parsed.visit, {
      source: 'staff',
      eventId,
      now: now(),
      tellCrm,
      changes: parsed.changes,
    });
    outboxWritten();
    if (outcome === 'already-recorded') return (await alreadySent()) ?? refused(staffPage.reload);
    if (outcome === 'too-many-visits') return refused(staffVisitText.tooMany(DRYING_LIMITS.visitsPerClaim));
    if (outcome === 'too-many-machines') return refused(staffVisitText.tooManyMachines(DRYING_LIMITS.machinesPerVisit));
    if (outcome === 'nothing-changed') return refused(staffVisitText.nothingChanged);
    if (outcome === 'unknown-machine') return refused(staffVisitText.unknownMachine);
    const reopened = await reopenIfWet(client, id, eventId, { now: now(), tellCrm });
    outboxWritten();
    await recordLinkUse(client, id, 'update', 'saved', now());
    const changed = parsed.changes.filter((change) => changesMachine(change, machines.get(change.id)!)).length;
    const saved = staffVisitText.saved(parsed.visit.readings.length, parsed.visit.equipment.length + changed);
    return { kind: 'saved', message: reopened ? `${saved} ${staffVisitText.reopened}` : saved, formToken: newFormToken() };
  }

  return { lookUp, sessionFor, statusBySession, staffClaim, saveUpdate, recordVisit };
}

let shared: ReturnType<typeof createClaimPages> | undefined;

/** The process's claim pages (one budget of failed look-ups), made on first use. */
export function claimPages() {
  shared ??= createClaimPages();
  return shared;
}
