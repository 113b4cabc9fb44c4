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

const DAY_MS = 24 * HOUR_MS;
const SLOT_MS = 15 * MINUTE_MS;

// Days are counted as whole days since 1 January 1970 of the local calendar: cheap to step through and
// to key caches by. 1 January 1970 was a Thursday.
type DayNumber = number;
const dayNumberOf = (date: LocalDate): DayNumber => Date.UTC(date.year, date.month - 1, date.day) / DAY_MS;
const dateOf = (day: DayNumber): LocalDate => {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};
const weekdayOf = (day: DayNumber): Weekday => WEEKDAYS[(((day + 4) % 7) + 7) % 7]!;

const scotland = new Holidays('GB', 'SCT', { types: ['public'] });
const holidaysByYear = new Map<number, ReadonlySet<string>>();
const holidayDays = new Set<DayNumber>();

/** Scotland's bank holidays in `year`, as YYYY-MM-DD local dates. */
export function bankHolidays(year: number): ReadonlySet<string> {
  let dates = holidaysByYear.get(year);
  if (!dates) {
    // `date` is the holiday's local date and time, "2026-01-02 00:00:00".
    dates = new Set(scotland.getHolidays(year).map((holiday) => holiday.date.slice(0, 10)));
    for (const date of dates) holidayDays.add(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
    holidaysByYear.set(year, dates);
  }
  return dates;
}

const isHoliday = (day: DayNumber) => {
  bankHolidays(new Date(day * DAY_MS).getUTCFullYear());
  return holidayDays.has(day);
};

export const isBankHoliday = (date: LocalDate) => isHoliday(dayNumberOf(date));

const isWorkingDay = (day: DayNumber, hours: WorkingHours) => hours.days.includes(weekdayOf(day)) && !isHoliday(day);

// Each day's opening and closing instants, kept per set of hours: a portfolio asks for the same days
// thousands of times, and each is two readings of the zone's offset.
const boundsCache = new WeakMap<WorkingHours, Map<DayNumber, readonly [number, number]>>();
function dayBounds(day: DayNumber, hours: WorkingHours): readonly [opensMs: number, closesMs: number] {
  let days = boundsCache.get(hours);
  if (!days) {
    days = new Map();
    boundsCache.set(hours, days);
  }
  let bounds = days.get(day);
  if (!bounds) {
    const date = dateOf(day);
    bounds = [instantAtLocal(date, minutesOf(hours.opens), hours.timeZone), instantAtLocal(date, minutesOf(hours.closes), hours.timeZone)];
    days.set(day, bounds);
  }
  return bounds;
}

function nextWorkingDay(day: DayNumber, hours: WorkingHours): DayNumber {
  if (hours.days.length === 0) throw new Error('No working days: a deadline could never fall.');
  let next = day + 1;
  while (!isWorkingDay(next, hours)) next += 1;
  return next;
}

// The local date at an instant, kept per quarter hour of UTC: every zone's offset is a whole number of
// quarter hours and changes on one, so the local date is the same throughout each quarter hour.
const localDays = new Map<string, Map<number, DayNumber>>();
function localDayOf(instantMs: number, hours: WorkingHours): DayNumber {
  let slots = localDays.get(hours.timeZone);
  if (!slots) {
    slots = new Map();
    localDays.set(hours.timeZone, slots);
  }
  const slot = Math.floor(instantMs / SLOT_MS);
  let day = slots.get(slot);
  if (day === undefined) {
    if (slots.size >= 200_000) slots.clear();
    day = dayNumberOf(wallClock(instantMs, hours.timeZone));
    slots.set(slot, day);
  }
  return day;
}

/**
 * When the working clock starts for something that happens at `instantMs`: then, if the company is
 * open; otherwise at its next opening (an instruction sent on Friday evening starts on Monday at 08:00,
 * one sent on a bank holiday at the next working day's opening).
 */
export function clockStart(instantMs: number, hours: WorkingHours): { date: LocalDate; startMs: number } {
  const start = startOf(instantMs, hours);
  return { date: dateOf(start.day), startMs: start.startMs };
}

function startOf(instantMs: number, hours: WorkingHours): { day: DayNumber; startMs: number } {
  const day = localDayOf(instantMs, hours);
  if (isWorkingDay(day, hours)) {
    const [opensMs, closesMs] = dayBounds(day, hours);
    if (instantMs < opensMs) return { day, startMs: opensMs };
    if (instantMs < closesMs) return { day, startMs: instantMs };
  }
  const next = nextWorkingDay(day, hours);
  return { day: next, startMs: dayBounds(next, hours)[0] };
}

/**
 * The latest instant that still meets an allowance counted from `fromMs`. Hours: that much opening
 * time after the clock starts, carried over closed evenings and days. Days: the close of the n-th
 * working day after the day the clock starts (from Monday, 2 working days is Wednesday at closing).
 * Plain hours: that many hours of the clock, open or not.
 */
export function workingDeadline(fromMs: number, allowance: ClockAllowance, hours: WorkingHours): number {
  if ('plainHours' in allowance) return fromMs + allowance.plainHours * HOUR_MS;
  const start = startOf(fromMs, hours);
  let day = start.day;
  if ('workingDays' in allowance) {
    for (let counted = 0; counted < allowance.workingDays; counted += 1) day = nextWorkingDay(day, hours);
    return dayBounds(day, hours)[1];
  }
  let remaining = allowance.workingHours * HOUR_MS;
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
  const last = localDayOf(toMs, hours);
  let total = 0;
  for (let day = localDayOf(fromMs, hours); day <= last; day += 1) {
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
