// `npm run appointments`: its arguments, what it prints and its exit codes, against a real database;
// and once end to end as the operator runs it.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { runAppointmentsCommand } from '@/scripts/support/appointments-command';
import { newFormToken } from '@/server/claims/claim-pages';
import { bookSurvey, freeWindows } from '@/server/claims/survey-booking';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';

// Friday 4 December 2026, 15:00 GMT: Monday 7 December is the first day offered.
const NOW = Date.parse('2026-12-04T15:00:00Z');
let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const run = (...args: string[]) => runAppointmentsCommand(db, args, { now: NOW });

describe('npm run appointments', () => {
  it('--capacity sets the visits a window takes from a date on; --list shows what is booked where', async () => {
    expect(await run('--capacity', '3', '--from', '2026-12-08')).toEqual({
      code: 0,
      out: ['Each window takes 3 visits from Tuesday 8 December 2026 on.'],
      err: [],
    });
    expect((await run('--capacity', '1', '--from', '2026-12-09', '--window', 'PM')).out).toEqual([
      'The afternoon window takes 1 visit from Wednesday 9 December 2026 on.',
    ]);
    const { id } = await submitEnquiryAt(db, NOW - 60_000);
    const slot = { date: '2026-12-07', window: 'am' } as const;
    const hours = business.openingHours;
    expect(
      await bookSurvey(db, { enquiryId: id, stage: 'received', slot, formToken: newFormToken(), now: NOW, hours, tellCrm: false }),
    ).toMatchObject({
      kind: 'booked',
    });
    const listed = await run('--list', '--from', '2026-12-05', '--to', '2026-12-09');
    expect(listed.out).toEqual([
      '2026-12-07  Monday 7 December      morning   1 booked of 2, 1 left',
      '2026-12-07  Monday 7 December      afternoon 0 booked of 2, 2 left',
      '2026-12-08  Tuesday 8 December     morning   0 booked of 3, 3 left',
      '2026-12-08  Tuesday 8 December     afternoon 0 booked of 3, 3 left',
      '2026-12-09  Wednesday 9 December   morning   0 booked of 3, 3 left',
      '2026-12-09  Wednesday 9 December   afternoon 0 booked of 1, 1 left',
    ]);
    // Without dates: the days offered now.
    expect((await run('--list')).out).toHaveLength(30);
  });

  it('--block takes a day or a window out of the offer, says what is booked in it, and --list shows why', async () => {
    const { id } = await submitEnquiryAt(db, NOW - 60_000);
    const hours = business.openingHours;
    await bookSurvey(db, {
      enquiryId: id,
      stage: 'received',
      slot: { date: '2026-12-07', window: 'pm' },
      formToken: newFormToken(),
      now: NOW,
      hours,
      tellCrm: false,
    });
    expect(await run('--block', '2026-12-07', '--reason', 'Training day')).toEqual({
      code: 0,
      out: ['Monday 7 December is not offered for surveys: Training day', '1 visit is booked in it: call to move it.'],
      err: [],
    });
    expect((await run('--block', '2026-12-08', '--window', 'am', '--reason', 'Van in for its MOT')).out).toEqual([
      'Tuesday 8 December, morning is not offered for surveys: Van in for its MOT',
    ]);
    expect((await freeWindows(db, NOW, hours)).slice(0, 1)).toEqual([
      { date: '2026-12-08', window: 'pm', free: 2, words: 'Tuesday 8 December, afternoon, 12pm to 5pm' },
    ]);
    expect((await run('--list', '--from', '2026-12-07', '--to', '2026-12-07')).out).toEqual([
      '2026-12-07  Monday 7 December      morning   0 booked of 2, 0 left  BLOCKED: Training day',
      '2026-12-07  Monday 7 December      afternoon 1 booked of 2, 0 left  BLOCKED: Training day',
    ]);
  });

  it('refuses what it cannot do plainly, changing nothing', async () => {
    for (const [args, line] of [
      [[], 'Give one of --capacity, --block or --list.'],
      [['--capacity', '3'], 'Give --from as a date, such as 2026-12-01.'],
      [['--capacity', '21', '--from', '2026-12-08'], '--capacity is a whole number of visits from 0 to 20, not 21.'],
      [['--capacity', '2', '--from', '2026-02-30'], '--from 2026-02-30 is not a date in the form 2026-12-01.'],
      [['--capacity', '2', '--from', '2026-12-08', '--window', 'evening'], '--window is am or pm, not evening.'],
      [['--block', '2026-12-08'], 'Give --reason: the company sees it in --list.'],
      [['--list', '--from', '2026-12-09', '--to', '2026-12-08'], '--to comes before --from.'],
    ] as const) {
      const result = await run(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err[0]).toBe(line);
    }
    expect(await run('--block', '2026-12-05', '--reason', 'x')).toEqual({
      code: 1,
      out: [],
      err: ['Saturday 5 December 2026 is not a working day: no window is offered on it.'],
    });
    expect((await freeWindows(db, NOW, business.openingHours))[0]?.free).toBe(2);
  });

  it('runs as the operator runs it', async () => {
    const env = { DATABASE_URL: url };
    const set = await runToEnd(spawnTs('scripts/appointments.ts', ['--capacity', '4', '--from', '2026-12-01'], env));
    expect(set.code, set.stderr).toBe(0);
    expect(set.lines).toEqual(['Each window takes 4 visits from Tuesday 1 December 2026 on.']);
    const refused = await runToEnd(spawnTs('scripts/appointments.ts', ['--block', '2026-12-01'], env));
    expect(refused.code).toBe(2);
  }, 60_000);
});
