import 'server-only';
import { instantAtLocal, wallClock as zoneWallClock, type WallClock } from '@/lib/zone-clock';
import type { DIGEST_MODES } from '@/server/base/db-schema';

/** Whose clock the digest keeps: the company's. */
export const DIGEST_TIME_ZONE = 'Europe/London';
/** A period starts (and the previous one's digest is due) at this local hour, on Mondays for the weekly one. */
export const DIGEST_HOUR = 8;

export type DigestMode = (typeof DIGEST_MODES)[number];

export type DigestPeriod = {
  mode: DigestMode;
  /** `weekly:2026-11-23`: unique per period; the date is the local day it starts. */
  key: string;
  /** The local day it starts, YYYY-MM-DD. */
  startDate: string;
  startMs: number;
  endMs: number;
};

const DAY_MS = 24 * 60 * 60_000;

/** The local date and time at `instantMs` on the company's clock (or `timeZone`'s). */
export const wallClock = (instantMs: number, timeZone = DIGEST_TIME_ZONE): WallClock => zoneWallClock(instantMs, timeZone);

/** The instant a local clock in `timeZone` shows `date` (YYYY-MM-DD) at `hour`:00 (not meant for the hour a clock skips). */
export function instantAt(date: string, hour: number, timeZone = DIGEST_TIME_ZONE): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantAtLocal({ year, month, day }, hour * 60, timeZone);
}

/** `date` (YYYY-MM-DD) moved by whole days on the calendar. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 for Monday … 6 for Sunday. */
function weekdayFromMonday(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

function periodStartingOn(startDate: string, mode: DigestMode, timeZone: string): DigestPeriod {
  const length = mode === 'weekly' ? 7 : 1;
  return {
    mode,
    key: `${mode}:${startDate}`,
    startDate,
    startMs: instantAt(startDate, DIGEST_HOUR, timeZone),
    // Computed from the calendar, not by adding hours: the week of a clock change is 167 or 169 hours long.
    endMs: instantAt(addDays(startDate, length), DIGEST_HOUR, timeZone),
  };
}

/** The period `instantMs` falls in: from Monday 08:00 (weekly) or 08:00 (daily), local time, to the next. */
export function periodContaining(instantMs: number, mode: DigestMode, timeZone = DIGEST_TIME_ZONE): DigestPeriod {
  const today = wallClock(instantMs, timeZone).date;
  const back = mode === 'weekly' ? weekdayFromMonday(today) : 0;
  const length = mode === 'weekly' ? 7 : 1;
  let start = addDays(today, -back);
  if (instantAt(start, DIGEST_HOUR, timeZone) > instantMs) start = addDays(start, -length);
  return periodStartingOn(start, mode, timeZone);
}

/** The period before `period`. */
export function previousPeriod(period: DigestPeriod, timeZone = DIGEST_TIME_ZONE): DigestPeriod {
  return periodContaining(period.startMs - 1, period.mode, timeZone);
}

/** The latest period that has ended by `nowMs`: the one whose digest is due. */
export function latestDuePeriod(nowMs: number, mode: DigestMode, timeZone = DIGEST_TIME_ZONE): DigestPeriod {
  return previousPeriod(periodContaining(nowMs, mode, timeZone), timeZone);
}

/** The period that holds the day `date` (YYYY-MM-DD), judged at its noon: for weekly, any day of that week from Monday on. */
export function periodOfDate(date: string, mode: DigestMode, timeZone = DIGEST_TIME_ZONE): DigestPeriod {
  return periodContaining(instantAt(date, 12, timeZone), mode, timeZone);
}
