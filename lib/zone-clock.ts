/**
 * A time zone's wall clock, from the platform's own zone rules (Intl): what it shows at an instant, and
 * the instant it shows a given local time. The offset is read at the instant itself, so a clock change
 * (London between GMT and BST) is never off by an hour. Used by the digest's periods and by working time.
 */

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

export type LocalDate = { year: number; month: number; day: number };
export type WallClock = LocalDate & { date: string; hour: number; minute: number; second: number };

/** The local date (also as YYYY-MM-DD) and time at `instantMs` in `timeZone`. */
export function wallClock(instantMs: number, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    partsFormat(timeZone)
      .formatToParts(new Date(instantMs))
      .map((part) => [part.type, part.value]),
  );
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((name) => Number(parts[name]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    year: year!,
    month: month!,
    day: day!,
    hour: hour!,
    minute: minute!,
    second: second!,
  };
}

/** How far `timeZone`'s clock is ahead of UTC at `instantMs` (London: 0 in winter, one hour in summer). */
function offsetMs(instantMs: number, timeZone: string): number {
  const local = wallClock(instantMs, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/** The instant `timeZone`'s clock shows `minutes` past midnight on `date` (not meant for the hour a clock skips). */
export function instantAtLocal(date: LocalDate, minutes: number, timeZone: string): number {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, 0, minutes);
  const first = asUtc - offsetMs(asUtc, timeZone);
  return asUtc - offsetMs(first, timeZone);
}
