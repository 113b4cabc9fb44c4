// What `npm run appointments` does (scripts/appointments.ts runs it): the survey windows the company
// offers on the status page, in the site's database (DATABASE_URL): how many visits a window takes from
// a date on, the days it blocks, and what is booked where.
import type { Client } from '@libsql/client';
import { parseArgs } from 'node:util';
import { business } from '@/content/business';
import { dateWords, isSurveyWindowName, isWorkingDate, offeredDates, parseLocalDate, SURVEY_WINDOWS } from '@/lib/survey-windows';
import { BLOCK_REASON_MAX, blockWindow, setWindowCapacity, WINDOW_CAPACITY_MAX, windowStandings } from '@/server/claims/survey-booking';
import { withDatabase, type CommandIo } from './command-io';
import { oneLine } from './listing-cli';

export const appointmentsUsage = `Usage: npm run appointments -- --capacity 3 --from 2026-12-01 [--window am|pm]
       npm run appointments -- --block 2026-12-24 [--window am|pm] --reason "Office closed"
       npm run appointments -- --list [--from 2026-12-01 --to 2026-12-18]
The survey windows homeowners book on the status page (morning 08:00-13:00, afternoon 12:00-17:00,
London time, working days), in the database at DATABASE_URL (default file:data/site.db).
  --capacity N --from DATE  each window takes N visits (0 to 20) from that date on, until a later
                            --capacity; with --window, only that window
  --block DATE --reason TEXT
                            that day (or, with --window, that window) is not offered; visits booked
                            in it stay booked, and are counted so you can move them
  --list                    each window: visits booked, the capacity, places left and blocks; the
                            days offered now unless --from and --to are given`;

const OPTIONS = {
  capacity: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  window: { type: 'string' },
  block: { type: 'string' },
  reason: { type: 'string' },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type CommandResult = { code: number; out: string[]; err: string[] };

const done = (out: string[]): CommandResult => ({ code: 0, out, err: [] });
const refused = (line: string, code = 1): CommandResult => ({ code, out: [], err: [line] });
const usageError = (line: string): CommandResult => ({ code: 2, out: [], err: [line, '', ...appointmentsUsage.split('\n')] });

const LIST_DAYS_MAX = 120;

function dateArg(name: string, value: string | undefined): string | CommandResult {
  if (value === undefined) return usageError(`Give --${name} as a date, such as 2026-12-01.`);
  const date = value.trim();
  return parseLocalDate(date) ? date : usageError(`--${name} ${oneLine(value, 40)} is not a date in the form 2026-12-01.`);
}

/** `npm run appointments` with these arguments against `db` at `now`: what it prints and its exit code. */
export async function runAppointmentsCommand(db: Client, args: readonly string[], { now }: { now: number }): Promise<CommandResult> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    ({ values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return done(appointmentsUsage.split('\n'));
  const chosen = [values.capacity !== undefined, values.block !== undefined, Boolean(values.list)].filter(Boolean).length;
  if (chosen !== 1) return usageError('Give one of --capacity, --block or --list.');
  const window = values.window?.trim().toLowerCase() ?? null;
  if (window !== null && !isSurveyWindowName(window)) return usageError(`--window is am or pm, not ${oneLine(values.window!, 20)}.`);

  if (values.capacity !== undefined) {
    const capacity = Number(values.capacity.trim());
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > WINDOW_CAPACITY_MAX)
      return usageError(`--capacity is a whole number of visits from 0 to ${WINDOW_CAPACITY_MAX}, not ${oneLine(values.capacity, 20)}.`);
    const fromDate = dateArg('from', values.from);
    if (typeof fromDate !== 'string') return fromDate;
    await setWindowCapacity(db, { fromDate, window, capacity, source: 'operator', now });
    const which = window === null ? 'Each window' : `The ${SURVEY_WINDOWS.find((each) => each.name === window)!.words} window`;
    return done([
      `${which} takes ${capacity} ${capacity === 1 ? 'visit' : 'visits'} from ${dateWords(fromDate)} ${fromDate.slice(0, 4)} on.`,
    ]);
  }

  if (values.block !== undefined) {
    const date = dateArg('block', values.block);
    if (typeof date !== 'string') return date;
    const reason = values.reason?.trim() ?? '';
    if (!reason) return usageError('Give --reason: the company sees it in --list.');
    if (reason.length > BLOCK_REASON_MAX) return usageError(`--reason is at most ${BLOCK_REASON_MAX} characters.`);
    if (!isWorkingDate(parseLocalDate(date)!, business.openingHours))
      return refused(`${dateWords(date)} ${date.slice(0, 4)} is not a working day: no window is offered on it.`);
    const { booked } = await blockWindow(db, { date, window, reason, source: 'operator', now });
    const what = window === null ? dateWords(date) : `${dateWords(date)}, ${SURVEY_WINDOWS.find((each) => each.name === window)!.words}`;
    return done([
      `${what} is not offered for surveys: ${reason}`,
      ...(booked > 0
        ? [`${booked} ${booked === 1 ? 'visit is' : 'visits are'} booked in it: call to move ${booked === 1 ? 'it' : 'them'}.`]
        : []),
    ]);
  }

  let dates: string[];
  if (values.from !== undefined || values.to !== undefined) {
    const from = dateArg('from', values.from);
    if (typeof from !== 'string') return from;
    const to = dateArg('to', values.to);
    if (typeof to !== 'string') return to;
    if (to < from) return usageError('--to comes before --from.');
    dates = [];
    for (let day = Date.parse(`${from}T12:00:00Z`); dates.length <= LIST_DAYS_MAX; day += 24 * 60 * 60_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      if (date > to) break;
      if (isWorkingDate(parseLocalDate(date)!, business.openingHours)) dates.push(date);
    }
    if (dates.length > LIST_DAYS_MAX) return usageError(`--list shows at most ${LIST_DAYS_MAX} working days at once.`);
  } else dates = offeredDates(now, business.openingHours);
  if (dates.length === 0) return done(['No working day in that range.']);
  const lines = (await windowStandings(db, dates)).map((standing) => {
    const window = SURVEY_WINDOWS.find((each) => each.name === standing.window)!;
    const day = `${dateWords(standing.date)}`.padEnd(22);
    const booked = `${standing.booked} booked of ${standing.capacity}, ${standing.left} left`;
    return `${standing.date}  ${day} ${window.words.padEnd(9)} ${booked}${standing.blocked === null ? '' : `  BLOCKED: ${standing.blocked}`}`;
  });
  return done(lines);
}

/** `npm run appointments` as the operator runs it: the process's database and clock. */
export async function appointmentsMain(args: readonly string[], io: CommandIo): Promise<number> {
  const result = await withDatabase((db) => runAppointmentsCommand(db, args, { now: Date.now() }));
  for (const line of result.out) io.log(line);
  for (const line of result.err) io.error(line);
  return result.code;
}
