/**
 * The windows a surveyor's visit can be booked in: each working day of the company has a morning and an
 * afternoon window on its own clock (London), offered from the next working day (never the same day: a
 * window closes at 17:00 on the working day before it) up to OFFERED_WORKING_DAYS working days ahead.
 * How many visits a window takes, and which are blocked, are the company's (server/claims/survey-booking.ts).
 * Uses the working-day calendar (Scottish bank holidays skipped), so it is for the server and tests.
 */

import type { InsurerTimes } from '@/lib/insurer-times';
import { isBankHoliday, WEEKDAYS, type WorkingHours } from '@/lib/working-time';
import { instantAtLocal, wallClock, type LocalDate } from '@/lib/zone-clock';

export const SURVEY_WINDOWS = [
  { name: 'am', words: 'morning', opens: '08:00', closes: '13:00', times: '8am to 1pm' },
  { name: 'pm', words: 'afternoon', opens: '12:00', closes: '17:00', times: '12pm to 5pm' },
] as const;

export type SurveyWindowName = (typeof SURVEY_WINDOWS)[number]['name'];

export const isSurveyWindowName = (value: unknown): value is SurveyWindowName =>
  typeof value === 'string' && SURVEY_WINDOWS.some((window) => window.name === value);

/** Visits a window takes unless the company says otherwise. */
export const DEFAULT_WINDOW_CAPACITY = 2;
/** How far ahead windows are offered, in working days after today. */
export const OFFERED_WORKING_DAYS = 15;
/** A window can be booked until this time on the working day before it. */
export const BOOKING_CLOSES_AT = '17:00';
/** The homeowner's reminder of a visit goes at this time on the working day before it. */
export const REMINDER_AT = '18:00';

/** One window on one day: `2026-12-01` and `am`. */
export type SurveyWindow = { date: string; window: SurveyWindowName };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_MS = 24 * 60 * 60_000;

const minutesOf = (clock: string) => {
  const [hours, minutes] = clock.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
};

/** `2026-12-01` as a local date, or null when it is not a real date in that form. */
export function parseLocalDate(text: string): LocalDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? { year, month, day } : null;
}

const isoOf = (date: LocalDate) =>
  `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

const addDays = (date: LocalDate, days: number): LocalDate => {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
};

const weekdayOf = (date: LocalDate) => WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()]!;

/** Whether the company works on `date`: one of its days, and not a Scottish bank holiday. */
export const isWorkingDate = (date: LocalDate, hours: WorkingHours) => hours.days.includes(weekdayOf(date)) && !isBankHoliday(date);

function previousWorkingDate(date: LocalDate, hours: WorkingHours): LocalDate {
  let day = addDays(date, -1);
  for (let step = 0; step < 366 && !isWorkingDate(day, hours); step += 1) day = addDays(day, -1);
  return day;
}

/** The instants a window opens and closes on its day. */
export function windowSpan(slot: SurveyWindow, hours: WorkingHours): { startMs: number; endMs: number } {
  const date = parseLocalDate(slot.date);
  const window = SURVEY_WINDOWS.find((each) => each.name === slot.window);
  if (!date || !window) throw new Error(`No such window: ${slot.date} ${slot.window}`);
  return {
    startMs: instantAtLocal(date, minutesOf(window.opens), hours.timeZone),
    endMs: instantAtLocal(date, minutesOf(window.closes), hours.timeZone),
  };
}

/** The moment a day's windows stop being offered: 17:00 on the working day before it. */
export function bookingClosesAt(date: LocalDate, hours: WorkingHours): number {
  return instantAtLocal(previousWorkingDate(date, hours), minutesOf(BOOKING_CLOSES_AT), hours.timeZone);
}

/**
 * When the reminder of a visit is due: 18:00 on the working day before it, or at once (`nowMs`) for a
 * visit booked after that.
 */
export function reminderDueAt(slot: SurveyWindow, nowMs: number, hours: WorkingHours): number {
  const date = parseLocalDate(slot.date);
  if (!date) throw new Error(`No such date: ${slot.date}`);
  return Math.max(nowMs, instantAtLocal(previousWorkingDate(date, hours), minutesOf(REMINDER_AT), hours.timeZone));
}

/**
 * The working days whose windows are offered at `nowMs`: the next OFFERED_WORKING_DAYS working days
 * after today on the company's clock, less any whose booking has closed (after 17:00 on Friday,
 * Monday's windows are gone and Tuesday's are the first).
 */
export function offeredDates(nowMs: number, hours: WorkingHours): string[] {
  if (hours.days.length === 0) return [];
  const today = wallClock(nowMs, hours.timeZone);
  const dates: string[] = [];
  let day: LocalDate = { year: today.year, month: today.month, day: today.day };
  while (dates.length < OFFERED_WORKING_DAYS) {
    day = addDays(day, 1);
    if (!isWorkingDate(day, hours)) continue;
    dates.push(isoOf(day));
  }
  return dates.filter((date) => bookingClosesAt(parseLocalDate(date)!, hours) > nowMs);
}

/** Today on the company's clock, and its next working day: the days the company's list of visits shows. */
export function todayAndNextWorkingDay(nowMs: number, hours: WorkingHours): [string, string] {
  const today = wallClock(nowMs, hours.timeZone);
  let day: LocalDate = { year: today.year, month: today.month, day: today.day };
  const first = isoOf(day);
  for (let step = 0; step < 366; step += 1) {
    day = addDays(day, 1);
    if (isWorkingDate(day, hours)) break;
  }
  return [first, isoOf(day)];
}

/** Whether a window is one offered at `nowMs` (before capacity and blocks). */
export function isOffered(slot: SurveyWindow, nowMs: number, hours: WorkingHours): boolean {
  return isSurveyWindowName(slot.window) && offeredDates(nowMs, hours).includes(slot.date);
}

/** A day as people say it: "Tuesday 1 December". */
export function dateWords(date: string): string {
  const local = parseLocalDate(date);
  if (!local) return date;
  return `${weekdayOf(local)} ${local.day} ${MONTHS[local.month - 1]}`;
}

/** A window as people say it: "Tuesday 1 December, morning, 8am to 1pm". */
export function windowWords(slot: SurveyWindow): string {
  const window = SURVEY_WINDOWS.find((each) => each.name === slot.window)!;
  return `${dateWords(slot.date)}, ${window.words}, ${window.times}`;
}

/** A window as one form value, `2026-12-01-am`, and back. */
export const windowValue = (slot: SurveyWindow) => `${slot.date}-${slot.window}`;

export function parseWindowValue(value: unknown): SurveyWindow | null {
  if (typeof value !== 'string' || value.length > 20) return null;
  const match = /^(\d{4}-\d{2}-\d{2})-(am|pm)$/.exec(value);
  if (!match || !parseLocalDate(match[1]!)) return null;
  return { date: match[1]!, window: match[2] as SurveyWindowName };
}

/**
 * The survey standard an instruction's windows can meet: the company's own for the stamp "surveyed",
 * once its standards are confirmed and while the survey is still due. A window meets it when it ends by
 * the deadline. Null for a homeowner's own enquiry, placeholder standards, or a survey no longer due.
 */
export function surveyStandard(insurer: InsurerTimes | null | undefined): { detail: string; deadlineMs: number } | null {
  if (!insurer?.standardsConfirmed) return null;
  const standard = insurer.stamps.find((stamp) => stamp.stage === 'surveyed')?.standard;
  if (standard?.outcome.kind !== 'due') return null;
  return { detail: standard.detail, deadlineMs: Date.parse(standard.outcome.by) };
}

/** Whether a window ends by a standard's deadline. */
export const meetsStandard = (slot: SurveyWindow, deadlineMs: number, hours: WorkingHours) => windowSpan(slot, hours).endMs <= deadlineMs;
