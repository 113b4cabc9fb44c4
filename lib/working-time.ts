/**
 * Deadlines counted in the company's working time: its opening days and hours on its own clock
 * (Europe/London, which moves between GMT and BST; the offset is read for each day, so a clock change
 * never adds or loses a working hour), Scottish bank holidays skipped. The holidays come from
 * date-holidays (Scotland's public holidays, substitute days included), read once per year; the library
 * carries every country's rules, so this module is for the server and tests, not for a client bundle.
 */

import Holidays from 'date-holidays';
import { instantAtLocal, wallClock, type LocalDate } from '@/lib/zone-clock';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type WorkingHours = {
  days: readonly Weekday[];
  /** HH:MM on the local clock. */
  opens: string;
  closes: string;
  timeZone: string;
};

/** A standard's allowance: hours of opening time, or working days ending at the close of the last one. */
export type WorkingAllowance = { workingHours: number } | { workingDays: number };

/** An allowance on the working clock, or in plain hours where every hour of the clock counts. */
export type ClockAllowance = WorkingAllowance | { plainHours: number };

const minutesOf = (clock: string): number => {
  const [hours, minutes] = clock.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
};

const weekdayOf = (date: LocalDate): Weekday => WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()]!;

const nextDate = (date: LocalDate): LocalDate => {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
};

const pad = (value: number) => String(value).padStart(2, '0');
const dateKey = (date: LocalDate) => `${date.year}-${pad(date.month)}-${pad(date.day)}`;

const scotland = new Holidays('GB', 'SCT', { types: ['public'] });
const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** Scotland's bank holidays in `year`, as YYYY-MM-DD local dates. */
export function bankHolidays(year: number): ReadonlySet<string> {
  let dates = holidaysByYear.get(year);
  if (!dates) {
    // `date` is the holiday's local date and time, "2026-01-02 00:00:00".
    dates = new Set(scotland.getHolidays(year).map((holiday) => holiday.date.slice(0, 10)));
    holidaysByYear.set(year, dates);
  }
  return dates;
}

export const isBankHoliday = (date: LocalDate) => bankHolidays(date.year).has(dateKey(date));

const isWorkingDay = (date: LocalDate, hours: WorkingHours) => hours.days.includes(weekdayOf(date)) && !isBankHoliday(date);

// Each day's opening and closing instants, kept per set of hours: a portfolio asks for the same days
// thousands of times, and each is two readings of the zone's offset.
const boundsCache = new WeakMap<WorkingHours, Map<string, readonly [number, number]>>();
function dayBounds(date: LocalDate, hours: WorkingHours): readonly [opensMs: number, closesMs: number] {
  let days = boundsCache.get(hours);
  if (!days) {
    days = new Map();
    boundsCache.set(hours, days);
  }
  const key = dateKey(date);
  let bounds = days.get(key);
  if (!bounds) {
    bounds = [instantAtLocal(date, minutesOf(hours.opens), hours.timeZone), instantAtLocal(date, minutesOf(hours.closes), hours.timeZone)];
    days.set(key, bounds);
  }
  return bounds;
}

function nextWorkingDay(date: LocalDate, hours: WorkingHours): LocalDate {
  if (hours.days.length === 0) throw new Error('No working days: a deadline could never fall.');
  let day = nextDate(date);
  while (!isWorkingDay(day, hours)) day = nextDate(day);
  return day;
}

const localDateOf = (instantMs: number, hours: WorkingHours): LocalDate => {
  const local = wallClock(instantMs, hours.timeZone);
  return { year: local.year, month: local.month, day: local.day };
};

/**
 * When the working clock starts for something that happens at `instantMs`: then, if the company is
 * open; otherwise at its next opening (an instruction sent on Friday evening starts on Monday at 08:00,
 * one sent on a bank holiday at the next working day's opening).
 */
export function clockStart(instantMs: number, hours: WorkingHours): { date: LocalDate; startMs: number } {
  const date = localDateOf(instantMs, hours);
  if (isWorkingDay(date, hours)) {
    const [opensMs, closesMs] = dayBounds(date, hours);
    if (instantMs < opensMs) return { date, startMs: opensMs };
    if (instantMs < closesMs) return { date, startMs: instantMs };
  }
  const next = nextWorkingDay(date, hours);
  return { date: next, startMs: dayBounds(next, hours)[0] };
}

/**
 * The latest instant that still meets an allowance counted from `fromMs`. Hours: that much opening
 * time after the clock starts, carried over closed evenings and days. Days: the close of the n-th
 * working day after the day the clock starts (from Monday, 2 working days is Wednesday at closing).
 * Plain hours: that many hours of the clock, open or not.
 */
export function workingDeadline(fromMs: number, allowance: ClockAllowance, hours: WorkingHours): number {
  if ('plainHours' in allowance) return fromMs + allowance.plainHours * HOUR_MS;
  const start = clockStart(fromMs, hours);
  if ('workingDays' in allowance) {
    let day = start.date;
    for (let counted = 0; counted < allowance.workingDays; counted += 1) day = nextWorkingDay(day, hours);
    return dayBounds(day, hours)[1];
  }
  let remaining = allowance.workingHours * HOUR_MS;
  let day = start.date;
  let from = start.startMs;
  for (;;) {
    const closesMs = dayBounds(day, hours)[1];
    if (remaining <= closesMs - from) return from + remaining;
    remaining -= closesMs - from;
    day = nextWorkingDay(day, hours);
    from = dayBounds(day, hours)[0];
  }
}

/** The opening time (ms) between two instants: the hours the company was open in between; 0 when `toMs` is not later. */
export function workingTimeBetween(fromMs: number, toMs: number, hours: WorkingHours): number {
  if (toMs <= fromMs) return 0;
  const last = dateKey(localDateOf(toMs, hours));
  let total = 0;
  for (let day = localDateOf(fromMs, hours); dateKey(day) <= last; day = nextDate(day)) {
    if (!isWorkingDay(day, hours)) continue;
    const [opensMs, closesMs] = dayBounds(day, hours);
    total += Math.max(0, Math.min(closesMs, toMs) - Math.max(opensMs, fromMs));
  }
  return total;
}

/** The time between two instants as an allowance counts it: opening time for working hours or days, every hour for plain hours. */
export function timeCounted(fromMs: number, toMs: number, allowance: ClockAllowance, hours: WorkingHours): number {
  if ('plainHours' in allowance) return Math.max(0, toMs - fromMs);
  return workingTimeBetween(fromMs, toMs, hours);
}
