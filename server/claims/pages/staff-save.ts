import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq } from 'drizzle-orm';
import { deadLinkText } from '@/content/claims';
import { staffPage } from '@/content/staff-page';
import { CONFIRMED_BY_MAX, NOTE_MAX, isClaimStage, isWaitingOn, stageWords, type StaffUpdateState } from '@/lib/claim-stages';
import { isCalendarDate, normaliseContactText } from '@/lib/contact-fields';
import { recordLinkUse } from '@/server/claims/claim-links';
import { claimStatus, recordStageChange } from '@/server/claims/claim-status';
import { driedRefusalOf, locationWords } from '@/server/claims/drying/record';
import { orm } from '@/server/base/db';
import { claimStageChanges } from '@/server/base/db-schema';
import { outboxWritten } from '@/server/ledger/outbox';
import { FORM_TOKEN_PATTERN, claimOfPage, londonTime, newFormToken, text, type ClaimPageContext } from './page-context';

type Refused = Extract<StaffUpdateState, { kind: 'refused' }>;

/** What a Save under this event id saved first, told as a refusal; null when nothing was. */
async function firstSave(client: Client, id: number, eventId: string, values: Record<string, string>): Promise<StaffUpdateState | null> {
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
}

/** The form's fields as they are saved, and what is wrong with them (a claim is dried only once its readings say so). */
async function checkedUpdate(client: Client, id: number, values: Record<string, string>) {
  const note = normaliseContactText(values.note ?? '', true);
  const nextDate = (values.nextDate ?? '').trim();
  const errors: Refused['errors'] = {};
  if (!isClaimStage(values.stage)) errors.stage = staffPage.badStage;
  if (nextDate && !isCalendarDate(nextDate)) errors.nextDate = staffPage.badDate;
  if (note.length > NOTE_MAX) errors.note = staffPage.noteTooLong;
  const confirmedBy = normaliseContactText(values.confirmedBy ?? '', false).trim();
  if (values.stage === 'dried' && !confirmedBy) errors.confirmedBy = staffPage.confirmedByMissing;
  if (values.stage === 'dried' && confirmedBy.length > CONFIRMED_BY_MAX) errors.confirmedBy = staffPage.confirmedByTooLong;
  const notDried = values.stage === 'dried' ? await driedRefusalOf(client, id) : null;
  if (notDried)
    errors.stage = notDried.kind === 'no-readings' ? staffPage.noDryingReadings : staffPage.notDried(locationWords(notDried.location));
  return { note, nextDate, confirmedBy, errors };
}

/**
 * The staff page's Save. Its form token makes it once-only: the change is recorded under it, so the
 * same token sent again (a double press, the Back button and another change) records nothing, sends
 * no second e-mail, and is answered with what the first send saved and when.
 */
export async function saveStaffUpdate(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
  form: FormData,
): Promise<StaffUpdateState> {
  const formToken = text(form, 'formToken');
  const values: Record<string, string> = Object.fromEntries(
    ['stage', 'nextDate', 'waitingOn', 'note', 'quiet', 'confirmedBy', 'formToken'].map((name) => [name, text(form, name)]),
  );
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'update', reference, session);
  if (id === null) return { kind: 'refused', message: deadLinkText.update, errors: {}, values };
  const eventId = `staff-save:${id}:${formToken}`;
  if (FORM_TOKEN_PATTERN.test(formToken)) {
    const sent = await firstSave(client, id, eventId, values);
    if (sent) return sent;
  }
  const { note, nextDate, confirmedBy, errors } = await checkedUpdate(client, id, values);
  if (!isClaimStage(values.stage) || Object.keys(errors).length > 0) return { kind: 'refused', message: staffPage.invalid, errors, values };
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
      tellCrm: ctx.tellCrm(),
      confirmedBy: values.stage === 'dried' ? confirmedBy : null,
    },
    ctx.now(),
  );
  outboxWritten();
  // The same token sent twice at once: the other send saved it.
  if (outcome === 'already-applied')
    return (await firstSave(client, id, eventId, values)) ?? { kind: 'refused', message: staffPage.reload, errors: {}, values };
  await recordLinkUse(client, id, 'update', 'saved', ctx.now());
  const shown = outcome === 'late' ? (await claimStatus(client, id))?.stage : undefined;
  return {
    kind: 'saved',
    message: shown ? staffPage.savedBehind(stageWords(values.stage), stageWords(shown)) : staffPage.saved(stageWords(values.stage)),
    formToken: newFormToken(),
  };
}
