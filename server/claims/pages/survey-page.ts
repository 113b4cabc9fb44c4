import 'server-only';
import { eq } from 'drizzle-orm';
import { business } from '@/content/business';
import { surveyBookingText as words } from '@/content/survey-booking';
import type { ClaimStatus } from '@/lib/claim-stages';
import {
  isSurveyIntent,
  SURVEY_FORM_TOKEN_FIELD,
  SURVEY_INTENT_FIELD,
  SURVEY_WINDOW_FIELD,
  type SurveyBookingState,
  type WindowChoice,
} from '@/lib/survey-booking-state';
import { meetsStandard, parseWindowValue, surveyStandard, windowValue } from '@/lib/survey-windows';
import { orm } from '@/server/base/db';
import { enquiries } from '@/server/base/db-schema';
import { claimStatus } from '@/server/claims/claim-status';
import {
  BOOKABLE_STAGES,
  bookedAppointment,
  bookSurvey,
  cancelSurvey,
  changeableAt,
  freeWindows,
  moveSurvey,
  type Appointment,
} from '@/server/claims/survey-booking';
import { surveyInvite } from '@/server/claims/survey-invite';
import { outboxWritten } from '@/server/ledger/outbox';
import { claimOfPage, FORM_TOKEN_PATTERN, newFormToken, text, type ClaimPageContext } from './page-context';

const hours = business.openingHours;

/** The windows offered now, as the forms list them, those that meet an instruction's survey standard marked. */
async function windowChoices(ctx: ClaimPageContext, status: ClaimStatus | null): Promise<WindowChoice[]> {
  const standard = surveyStandard(status?.insurer);
  return (await freeWindows(await ctx.db(), ctx.now(), hours)).map(({ date, window, words: said }) => ({
    value: windowValue({ date, window }),
    date,
    window,
    words: said,
    ...(standard && meetsStandard({ date, window }, standard.deadlineMs, hours) ? { standard: words.meetsStandard(standard.detail) } : {}),
  }));
}

/** The windows to book from now; `message`: why the last choice was refused; `notice`: a visit just cancelled. */
async function choose(ctx: ClaimPageContext, status: ClaimStatus | null, message?: string, notice?: string): Promise<SurveyBookingState> {
  const windows = await windowChoices(ctx, status);
  const said = [notice, message].filter(Boolean).join(' ');
  if (windows.length === 0) return { kind: 'closed', message: said ? `${said} ${words.none}` : words.none };
  return { kind: 'choose', windows, formToken: newFormToken(), ...(message ? { message } : {}), ...(notice ? { notice } : {}) };
}

/** A booked visit, with the windows it can move to while it can still be changed on the site. */
async function booked(
  ctx: ClaimPageContext,
  status: ClaimStatus | null,
  appointment: Appointment,
  extra: { message?: string; notice?: string; confirmCancel?: boolean } = {},
): Promise<SurveyBookingState> {
  const { confirmCancel, ...said } = extra;
  if (!changeableAt(appointment, ctx.now(), hours)) return { kind: 'booked', words: appointment.words, ...said };
  const windows = (await windowChoices(ctx, status)).filter((choice) => choice.value !== windowValue(appointment));
  return {
    kind: 'booked',
    words: appointment.words,
    change: { windows, formToken: newFormToken(), ...(confirmCancel ? { confirmCancel } : {}) },
    ...said,
  };
}

/**
 * The status page's survey section by its cookie: the booked visit, the windows to book from, or null
 * (no cookie for this claim, or a stage the homeowner does not book from with nothing booked).
 */
export async function surveyBySession(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
): Promise<{ state: SurveyBookingState; appointment: Appointment | null } | null> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'status', reference, session);
  if (id === null) return null;
  const status = await claimStatus(client, id);
  const appointment = await bookedAppointment(client, id);
  if (appointment) return { state: await booked(ctx, status, appointment), appointment };
  if (!status || !BOOKABLE_STAGES.includes(status.stage)) return null;
  return { state: await choose(ctx, status), appointment: null };
}

/**
 * A press of one of the survey section's buttons, by the claim's own cookie: book a window, move the
 * visit, ask to cancel it, cancel it, or keep it. Each answers with what the section shows next.
 */
export async function surveyFormByPage(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
  form: FormData,
): Promise<SurveyBookingState> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'status', reference, session);
  const status = id === null ? null : await claimStatus(client, id);
  if (id === null || !status) return { kind: 'closed', message: words.reload };
  const intent = text(form, SURVEY_INTENT_FIELD) || 'book';
  const formToken = text(form, SURVEY_FORM_TOKEN_FIELD);
  const current = await bookedAppointment(client, id);
  if (!isSurveyIntent(intent) || !FORM_TOKEN_PATTERN.test(formToken))
    return current ? booked(ctx, status, current, { message: words.reload }) : choose(ctx, status, words.reload);
  const request = { enquiryId: id, now: ctx.now(), hours, tellCrm: ctx.tellCrm() };

  if (intent === 'book') {
    const slot = parseWindowValue(text(form, SURVEY_WINDOW_FIELD));
    if (!slot) return current ? booked(ctx, status, current) : choose(ctx, status, words.choose);
    const outcome = await bookSurvey(client, { ...request, stage: status.stage, slot, formToken });
    outboxWritten();
    if (outcome.kind === 'booked') return booked(ctx, status, outcome.appointment);
    if (outcome.reason === 'already-booked')
      return current ? booked(ctx, status, current) : { kind: 'closed', message: words.refused.stage };
    if (outcome.reason === 'stage') return { kind: 'closed', message: words.refused.stage };
    return choose(ctx, status, words.refused[outcome.reason]);
  }
  if (intent === 'cancel') {
    const outcome = await cancelSurvey(client, request);
    outboxWritten();
    if (outcome.kind === 'cancelled')
      return choose(ctx, await claimStatus(client, id), undefined, words.cancelled(outcome.appointment.words));
    if (current) return booked(ctx, status, current, { message: words.change });
    return choose(ctx, status);
  }
  if (!current) return choose(ctx, status);
  if (intent === 'cancel-ask') return booked(ctx, status, current, { confirmCancel: true });
  if (intent === 'keep') return booked(ctx, status, current);
  const slot = parseWindowValue(text(form, SURVEY_WINDOW_FIELD));
  if (!slot) return booked(ctx, status, current, { message: words.choose });
  const outcome = await moveSurvey(client, { ...request, slot });
  outboxWritten();
  if (outcome.kind !== 'refused') return booked(ctx, status, outcome.appointment, { notice: words.moved(outcome.appointment.words) });
  if (outcome.reason === 'moves') return booked(ctx, status, current, { message: words.movesUsed });
  if (outcome.reason === 'closed') return booked(ctx, status, current, { message: words.change });
  if (outcome.reason === 'none') return choose(ctx, status);
  return booked(ctx, status, current, { message: words.refused[outcome.reason] });
}

/** The booked visit's invite for "Add to calendar", by the status page's cookie; null when nothing is booked or the cookie is not this claim's. */
export async function surveyInviteBySession(ctx: ClaimPageContext, reference: string, session: string | undefined): Promise<string | null> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'status', reference, session);
  if (id === null) return null;
  const appointment = await bookedAppointment(client, id);
  const [enquiry] = await orm(client)
    .select({ email: enquiries.email, reference: enquiries.reference })
    .from(enquiries)
    .where(eq(enquiries.id, id));
  if (!appointment || !enquiry?.reference) return null;
  return surveyInvite(appointment, { reference: enquiry.reference, attendee: enquiry.email });
}
