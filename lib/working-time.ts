/**
 * Deadlines counted in the company's working time: its opening days and hours on its own clock
 * (Europe/London, which moves between GMT and BST; the offset is read for each day, so a clock change
 * never adds or loses a working hour). Bank holidays are not known here: they count as working days.
 */

import { instantAtLocal, wallClock, type LocalDate } from '@/lib/zone-clock';

const MINUTE_MS = 60_000;

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

const minutesOf = (clock: string): number => {
  const [hours, minutes] = clock.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
};

const weekdayOf = (date: LocalDate): Weekday => WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()]!;

const nextDate = (date: LocalDate): LocalDate => {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
};

const isWorkingDay = (date: LocalDate, hours: WorkingHours) => hours.days.includes(weekdayOf(date));

function nextWorkingDay(date: LocalDate, hours: WorkingHours): LocalDate {
  if (hours.days.length === 0) throw new Error('No working days: a deadline could never fall.');
  let day = nextDate(date);
  while (!isWorkingDay(day, hours)) day = nextDate(day);
  return day;
}

/**
 * When the working clock starts for something that happens at `instantMs`: then, if the company is
 * open; otherwise at its next opening (an instruction sent on Friday evening starts on Monday at 08:00).
 */
export function clockStart(instantMs: number, hours: WorkingHours): { date: LocalDate; startMs: number } {
  const local = wallClock(instantMs, hours.timeZone);
  const date = { year: local.year, month: local.month, day: local.day };
  if (isWorkingDay(date, hours)) {
    const opensMs = instantAtLocal(date, minutesOf(hours.opens), hours.timeZone);
    const closesMs = instantAtLocal(date, minutesOf(hours.closes), hours.timeZone);
    if (instantMs < opensMs) return { date, startMs: opensMs };
    if (instantMs < closesMs) return { date, startMs: instantMs };
  }
  const next = nextWorkingDay(date, hours);
  return { date: next, startMs: instantAtLocal(next, minutesOf(hours.opens), hours.timeZone) };
}

/**
 * The latest instant that still meets an allowance counted from `fromMs`. Hours: that much opening
 * time after the clock starts, carried over closed evenings and days. Days: the close of the n-th
 * working day after the day the clock starts (from Monday, 2 working days is Wednesday at closing).
 */
export function workingDeadline(fromMs: number, allowance: WorkingAllowance, hours: WorkingHours): number {
  const opens = minutesOf(hours.opens);
  const closes = minutesOf(hours.closes);
  const start = clockStart(fromMs, hours);
  if ('workingDays' in allowance) {
    let day = start.date;
    for (let counted = 0; counted < allowance.workingDays; counted += 1) day = nextWorkingDay(day, hours);
    return instantAtLocal(day, closes, hours.timeZone);
  }
  let remaining = allowance.workingHours * 60 * MINUTE_MS;
  let day = start.date;
  let from = start.startMs;
  for (;;) {
    const closesMs = instantAtLocal(day, closes, hours.timeZone);
    if (remaining <= closesMs - from) return from + remaining;
    remaining -= closesMs - from;
    day = nextWorkingDay(day, hours);
    from = instantAtLocal(day, opens, hours.timeZone);
  }
}
