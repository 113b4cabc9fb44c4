import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, eq } from 'drizzle-orm';
import { deadLinkText } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { staffVisitText } from '@/content/drying';
import { DRYING_LIMITS, changesMachine, type StoredMachine } from '@/lib/drying';
import { CONFIRM_WET_FIELD, machineFieldName, readingFieldName, type StaffVisitState } from '@/lib/drying-form';
import { recordLinkUse } from '@/server/claims/claim-links';
import { claimStatus } from '@/server/claims/claim-status';
import { machinesOf, recordDryingVisit, type DryingVisitOutcome } from '@/server/claims/drying/record';
import { reopenIfWet } from '@/server/claims/drying/reopen';
import { visitOfForm } from '@/server/claims/drying/visit-form';
import { orm } from '@/server/base/db';
import { dryingReadings, dryingVisits, enquiries } from '@/server/base/db-schema';
import { outboxWritten } from '@/server/ledger/outbox';
import { FORM_TOKEN_PATTERN, claimOfPage, londonDayTime, londonTime, newFormToken, text, type ClaimPageContext } from './page-context';

type Refuse = (message: string, errors?: Record<string, string>) => StaffVisitState;
type ParsedVisit = Extract<ReturnType<typeof visitOfForm>, { ok: true }>;
type Machines = Map<number, StoredMachine & { id: number }>;

/** What a Save under this event id recorded first (the visit's time and readings), as a refusal; null when nothing was. */
async function firstVisit(client: Client, id: number, eventId: string, refused: Refuse): Promise<StaffVisitState | null> {
  const [first] = await orm(client)
    .select({ id: dryingVisits.id, visitAt: dryingVisits.visitAt, recordedAt: dryingVisits.recordedAt })
    .from(dryingVisits)
    .where(and(eq(dryingVisits.eventId, eventId), eq(dryingVisits.enquiryId, id)));
  if (!first) return null;
  const [readings] = await orm(client).select({ n: count() }).from(dryingReadings).where(eq(dryingReadings.visitId, first.id));
  const what = staffVisitText.firstVisit(londonDayTime(first.visitAt), readings?.n ?? 0);
  return refused(staffPage.alreadySent(londonTime(first.recordedAt), what));
}

/**
 * What the stored record refuses in a visit the form's own checks passed: a machine the claim does not
 * have, one switched off before it was on, or (on a claim at `dried`) a reading above its goal not
 * confirmed. Null when the visit may be recorded.
 */
async function visitRefusal(
  client: Client,
  id: number,
  parsed: ParsedVisit,
  machines: Machines,
  form: FormData,
  refused: Refuse,
): Promise<StaffVisitState | null> {
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
  return null;
}

/** The words for a visit the drying record did not take; null when it was recorded (or already was). */
function notRecordedMessage(outcome: DryingVisitOutcome): string | null {
  if (outcome === 'too-many-visits') return staffVisitText.tooMany(DRYING_LIMITS.visitsPerClaim);
  if (outcome === 'too-many-machines') return staffVisitText.tooManyMachines(DRYING_LIMITS.machinesPerVisit);
  if (outcome === 'nothing-changed') return staffVisitText.nothingChanged;
  if (outcome === 'unknown-machine') return staffVisitText.unknownMachine;
  return null;
}

/**
 * The staff page's "Record a visit": one visit of the claim's drying record, checked by the same
 * rules as the CRM's event, recorded once per form token (sent again, it is answered with what the
 * first send recorded and when). Machines already recorded change only where their row says so. On a
 * claim at `dried`, a reading above its goal is recorded only once confirmed (`confirmWet`), and moves
 * the claim back to drying.
 */
export async function recordStaffVisit(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
  form: FormData,
): Promise<StaffVisitState> {
  const values = Object.fromEntries([...form.entries()].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
  const refused: Refuse = (message, errors = {}) => ({ kind: 'refused', message, errors, values });
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'update', reference, session);
  if (id === null) return refused(deadLinkText.update);
  const formToken = text(form, 'formToken');
  if (!FORM_TOKEN_PATTERN.test(formToken)) return refused(staffPage.reload);
  const eventId = `staff-visit:${id}:${formToken}`;
  const sent = await firstVisit(client, id, eventId, refused);
  if (sent) return sent;
  const [claim] = await orm(client).select({ receivedMs: enquiries.receivedMs }).from(enquiries).where(eq(enquiries.id, id));
  const parsed = visitOfForm(form, reference, { now: ctx.now(), receivedMs: claim?.receivedMs ?? ctx.now() });
  if (!parsed.ok) return refused(parsed.message, parsed.errors);
  const machines: Machines = new Map((await machinesOf(client, id)).map((machine) => [machine.id, machine]));
  const refusal = await visitRefusal(client, id, parsed, machines, form, refused);
  if (refusal) return refusal;
  const tellCrm = ctx.tellCrm();
  const outcome = await recordDryingVisit(client, id, parsed.visit, {
    source: 'staff',
    eventId,
    now: ctx.now(),
    tellCrm,
    changes: parsed.changes,
  });
  outboxWritten();
  if (outcome === 'already-recorded') return (await firstVisit(client, id, eventId, refused)) ?? refused(staffPage.reload);
  const notRecorded = notRecordedMessage(outcome);
  if (notRecorded) return refused(notRecorded);
  const reopened = await reopenIfWet(client, id, eventId, { now: ctx.now(), tellCrm });
  outboxWritten();
  await recordLinkUse(client, id, 'update', 'saved', ctx.now());
  const changed = parsed.changes.filter((change) => changesMachine(change, machines.get(change.id)!)).length;
  const saved = staffVisitText.saved(parsed.visit.readings.length, parsed.visit.equipment.length + changed);
  return { kind: 'saved', message: reopened ? `${saved} ${staffVisitText.reopened}` : saved, formToken: newFormToken() };
}
