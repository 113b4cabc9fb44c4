import 'server-only';
import { business } from '@/content/business';
import { staffPage } from '@/content/staff-page';
import {
  isStaffSurveyIntent,
  SURVEY_FORM_TOKEN_FIELD,
  SURVEY_INTENT_FIELD,
  SURVEY_WINDOW_FIELD,
  type StaffSurveyState,
} from '@/lib/survey-booking-state';
import { dateWords, parseWindowValue, todayAndNextWorkingDay, windowValue } from '@/lib/survey-windows';
import {
  bookedAppointment,
  cancelSurvey,
  freeWindows,
  moveSurvey,
  recordNoAccess,
  visitsOn,
  type DayVisit,
} from '@/server/claims/survey-booking';
import { outboxWritten } from '@/server/ledger/outbox';
import { claimOfPage, FORM_TOKEN_PATTERN, newFormToken, text, type ClaimPageContext } from './page-context';

const words = staffPage.survey;

/** The staff page's survey section: the claim's booked visit, and the company's visits today and on the next working day. */
export type StaffSurvey = {
  booked: string | null;
  /** The windows a booked visit can move to now (the homeowner's offer: from the next working day, with a place free). */
  windows: { value: string; words: string }[];
  formToken: string;
  days: { date: string; heading: string; visits: DayVisit[] }[];
};

/** The staff page's survey section by its cookie; null when the cookie does not open this claim's staff page. */
export async function staffSurveyByPage(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
): Promise<StaffSurvey | null> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'update', reference, session);
  if (id === null) return null;
  const dates = todayAndNextWorkingDay(ctx.now(), business.openingHours);
  const [appointment, visits] = await Promise.all([bookedAppointment(client, id), visitsOn(client, dates)]);
  const windows = appointment
    ? (await freeWindows(client, ctx.now(), business.openingHours))
        .map((free) => ({ value: windowValue(free), words: free.words }))
        .filter((choice) => choice.value !== windowValue(appointment))
    : [];
  return {
    booked: appointment?.words ?? null,
    windows,
    formToken: newFormToken(),
    days: dates.map((date) => ({ date, heading: dateWords(date), visits: visits.filter((visit) => visit.date === date) })),
  };
}

/**
 * A press of the staff page's survey buttons, by its cookie: move the visit to another window (the
 * customer's e-mail carries the moved invite), "no access" (the surveyor found nobody in) or cancel.
 * The last two move the claim back to "Contacted", waiting on the customer, whose e-mail asks them to
 * book again; pressed twice, the second finds no visit booked and changes nothing.
 */
export async function staffSurveyForm(
  ctx: ClaimPageContext,
  reference: string,
  session: string | undefined,
  form: FormData,
): Promise<StaffSurveyState> {
  const client = await ctx.db();
  const id = await claimOfPage(ctx, client, 'update', reference, session);
  const intent = text(form, SURVEY_INTENT_FIELD);
  if (id === null || !isStaffSurveyIntent(intent) || !FORM_TOKEN_PATTERN.test(text(form, SURVEY_FORM_TOKEN_FIELD)))
    return { kind: 'refused', message: words.reload };
  const request = { enquiryId: id, now: ctx.now(), tellCrm: ctx.tellCrm(), madeBy: 'staff' as const };
  if (intent === 'move') {
    const slot = parseWindowValue(text(form, SURVEY_WINDOW_FIELD));
    if (!slot) return { kind: 'refused', message: words.chooseWindow };
    const outcome = await moveSurvey(client, { ...request, hours: business.openingHours, slot });
    outboxWritten();
    if (outcome.kind !== 'refused') return { kind: 'done', message: words.moved(outcome.appointment.words) };
    return { kind: 'refused', message: outcome.reason === 'none' ? words.nothingBooked : words.notFree };
  }
  if (intent === 'no-access') {
    const outcome = await recordNoAccess(client, request);
    outboxWritten();
    return outcome.kind === 'recorded'
      ? { kind: 'done', message: words.noAccessDone(outcome.appointment.words) }
      : { kind: 'refused', message: words.nothingBooked };
  }
  const current = await bookedAppointment(client, id);
  if (!current) return { kind: 'refused', message: words.nothingBooked };
  const outcome = await cancelSurvey(client, { ...request, hours: business.openingHours });
  outboxWritten();
  return outcome.kind === 'cancelled'
    ? { kind: 'done', message: words.cancelled(outcome.appointment.words) }
    : { kind: 'refused', message: words.nothingBooked };
}
