import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import { bankHolidays, clockStart, timeCounted, workingDeadline, workingTimeBetween, type WorkingHours } from '@/lib/working-time';

// The company's hours: Monday to Friday, 08:00 to 17:00 on the London clock.
const hours: WorkingHours = {
  days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
  opens: '08:00',
  closes: '17:00',
  timeZone: 'Europe/London',
};
const at = (iso: string) => Date.parse(iso);
const deadline = (from: string, within: Parameters<typeof workingDeadline>[1]) =>
  new Date(workingDeadline(at(from), within, hours)).toISOString();

describe('when the working clock starts', () => {
  it('at once during opening hours; at opening before them; at the next working opening after them or at a weekend', () => {
    // Winter (GMT): London time is UTC.
    expect(clockStart(at('2026-02-02T10:15:00Z'), hours).startMs).toBe(at('2026-02-02T10:15:00Z'));
    expect(clockStart(at('2026-02-02T06:30:00Z'), hours).startMs).toBe(at('2026-02-02T08:00:00Z'));
    expect(clockStart(at('2026-02-02T19:00:00Z'), hours).startMs).toBe(at('2026-02-03T08:00:00Z'));
    // Closing time itself is closed.
    expect(clockStart(at('2026-02-02T17:00:00Z'), hours).startMs).toBe(at('2026-02-03T08:00:00Z'));
    expect(clockStart(at('2026-02-06T18:00:00Z'), hours).startMs).toBe(at('2026-02-09T08:00:00Z'));
    expect(clockStart(at('2026-02-08T11:00:00Z'), hours).startMs).toBe(at('2026-02-09T08:00:00Z'));
  });

  it('keeps the London clock in summer: 07:30 UTC is 08:30 BST, open; 16:30 UTC is 17:30 BST, closed', () => {
    expect(clockStart(at('2026-06-01T07:30:00Z'), hours).startMs).toBe(at('2026-06-01T07:30:00Z'));
    expect(clockStart(at('2026-06-01T06:30:00Z'), hours).startMs).toBe(at('2026-06-01T07:00:00Z'));
    expect(clockStart(at('2026-06-01T16:30:00Z'), hours).startMs).toBe(at('2026-06-02T07:00:00Z'));
  });

  it('treats the hour after midnight UTC as the same London day in summer', () => {
    // 00:30 UTC on Saturday 6 June is 01:30 BST on Saturday: the weekend, so Monday's opening.
    expect(clockStart(at('2026-06-06T00:30:00Z'), hours).startMs).toBe(at('2026-06-08T07:00:00Z'));
    // 23:30 UTC on Sunday 7 June is 00:30 BST on Monday: before opening that day.
    expect(clockStart(at('2026-06-07T23:30:00Z'), hours).startMs).toBe(at('2026-06-08T07:00:00Z'));
  });
});

describe('a deadline in working hours', () => {
  it('falls within the day when it fits', () => {
    expect(deadline('2026-02-02T10:00:00Z', { workingHours: 4 })).toBe('2026-02-02T14:00:00.000Z');
  });

  it('ends at closing time exactly when the hours fill the day, not at the next opening', () => {
    expect(deadline('2026-02-02T13:00:00Z', { workingHours: 4 })).toBe('2026-02-02T17:00:00.000Z');
  });

  it('carries what is left over the evening to the next opening', () => {
    expect(deadline('2026-02-02T15:00:00Z', { workingHours: 4 })).toBe('2026-02-03T10:00:00.000Z');
  });

  it('from an evening, a night before opening, a Friday evening or a weekend, counts from the next opening', () => {
    expect(deadline('2026-02-02T19:00:00Z', { workingHours: 4 })).toBe('2026-02-03T12:00:00.000Z');
    expect(deadline('2026-02-03T02:00:00Z', { workingHours: 4 })).toBe('2026-02-03T12:00:00.000Z');
    expect(deadline('2026-02-06T18:00:00Z', { workingHours: 4 })).toBe('2026-02-09T12:00:00.000Z');
    expect(deadline('2026-02-07T10:00:00Z', { workingHours: 4 })).toBe('2026-02-09T12:00:00.000Z');
  });

  it('carries from Friday afternoon over the weekend', () => {
    expect(deadline('2026-02-06T16:00:00Z', { workingHours: 4 })).toBe('2026-02-09T11:00:00.000Z');
  });

  it('counts in BST in summer', () => {
    // 10:00 BST is 09:00 UTC; four hours on is 14:00 BST.
    expect(deadline('2026-06-01T09:00:00Z', { workingHours: 4 })).toBe('2026-06-01T13:00:00.000Z');
  });

  it('across the spring clock change: two hours on Friday in GMT, two on Monday in BST', () => {
    // Friday 27 March 2026 15:00 GMT; the clocks go forward on Sunday 29 March.
    expect(deadline('2026-03-27T15:00:00Z', { workingHours: 4 })).toBe('2026-03-30T09:00:00.000Z');
  });

  it('across the autumn clock change: two hours on Friday in BST, two on Monday in GMT', () => {
    // Friday 23 October 2026 15:00 BST (14:00 UTC); the clocks go back on Sunday 25 October.
    expect(deadline('2026-10-23T14:00:00Z', { workingHours: 4 })).toBe('2026-10-26T10:00:00.000Z');
  });

  it('more hours than a day holds run over several days', () => {
    // Monday 10:00 + 20 working hours: 7 on Monday, 9 on Tuesday, 4 on Wednesday.
    expect(deadline('2026-02-02T10:00:00Z', { workingHours: 20 })).toBe('2026-02-04T12:00:00.000Z');
  });
});

describe('a deadline in working days', () => {
  it('is the close of the n-th working day after the day the clock starts', () => {
    expect(deadline('2026-02-02T10:00:00Z', { workingDays: 2 })).toBe('2026-02-04T17:00:00.000Z');
    expect(deadline('2026-02-02T07:00:00Z', { workingDays: 2 })).toBe('2026-02-04T17:00:00.000Z');
  });

  it('skips the weekend, and starts from the next working day after closing', () => {
    expect(deadline('2026-02-05T10:00:00Z', { workingDays: 2 })).toBe('2026-02-09T17:00:00.000Z');
    // Friday after closing: the clock starts on Monday, so Wednesday.
    expect(deadline('2026-02-06T18:00:00Z', { workingDays: 2 })).toBe('2026-02-11T17:00:00.000Z');
    expect(deadline('2026-02-08T12:00:00Z', { workingDays: 2 })).toBe('2026-02-11T17:00:00.000Z');
  });

  it('ends at 17:00 on the London clock across a clock change', () => {
    // Thursday 26 March (GMT) + 2 working days: Monday 30 March at 17:00 BST, 16:00 UTC.
    expect(deadline('2026-03-26T10:00:00Z', { workingDays: 2 })).toBe('2026-03-30T16:00:00.000Z');
    // Thursday 22 October (BST) + 2 working days: Monday 26 October at 17:00 GMT.
    expect(deadline('2026-10-22T09:00:00Z', { workingDays: 2 })).toBe('2026-10-26T17:00:00.000Z');
  });
});

const HOUR = 3_600_000;
const between = (from: string, to: string) => workingTimeBetween(at(from), at(to), hours) / HOUR;

describe('Scottish bank holidays', () => {
  it('come from the holiday library: 2 January, St Andrew’s Day, the first Monday in August, substitute days', () => {
    expect([...bankHolidays(2026)]).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-04-03',
      '2026-05-04',
      '2026-05-25',
      '2026-08-03',
      '2026-11-30',
      '2026-12-25',
      '2026-12-26',
      '2026-12-28',
    ]);
    // 2 January 2027 is a Saturday: Monday 4 January is its substitute.
    expect(bankHolidays(2027).has('2027-01-04')).toBe(true);
  });

  it('an instruction on Friday 2 January 2026 starts the clock on Monday 5 January at 08:00', () => {
    expect(clockStart(at('2026-01-02T10:30:00Z'), hours).startMs).toBe(at('2026-01-05T08:00:00Z'));
    // New Year's Eve after closing: 1 and 2 January and the weekend are all closed.
    expect(clockStart(at('2025-12-31T18:00:00Z'), hours).startMs).toBe(at('2026-01-05T08:00:00Z'));
    expect(deadline('2026-01-02T10:30:00Z', { workingHours: 2 })).toBe('2026-01-05T10:00:00.000Z');
    // On a substitute day too: Saturday 2 January 2027 starts on Tuesday 5 January.
    expect(clockStart(at('2027-01-02T12:00:00Z'), hours).startMs).toBe(at('2027-01-05T08:00:00Z'));
  });

  it('are skipped by working hours carried over and by working days', () => {
    // Friday 27 November 2026 16:00 + 4 working hours: 1 on Friday; Monday 30 November is St Andrew’s Day; 3 on Tuesday.
    expect(deadline('2026-11-27T16:00:00Z', { workingHours: 4 })).toBe('2026-12-01T11:00:00.000Z');
    // Wednesday 31 December 2025 + 3 working days: Monday 5, Tuesday 6, Wednesday 7 January.
    expect(deadline('2025-12-31T10:00:00Z', { workingDays: 3 })).toBe('2026-01-07T17:00:00.000Z');
    expect(between('2026-01-01T09:00:00Z', '2026-01-05T09:00:00Z')).toBe(1);
  });

  it('are in the company’s own hours, which the claim pages count with', () => {
    expect(clockStart(at('2026-01-02T10:30:00Z'), business.openingHours).startMs).toBe(at('2026-01-05T08:00:00Z'));
  });
});

describe('working time elapsed between two instants', () => {
  it('across a weekend: instructed Friday 16:30, first contact Monday 09:15 is 1.75 working hours', () => {
    expect(between('2026-02-06T16:30:00Z', '2026-02-09T09:15:00Z')).toBe(1.75);
    // Within 2 working hours: the deadline is Monday 09:30.
    expect(deadline('2026-02-06T16:30:00Z', { workingHours: 2 })).toBe('2026-02-09T09:30:00.000Z');
  });

  it('across the clocks going forward on 29 March 2026: an hour on Friday in GMT, an hour on Monday in BST', () => {
    // Friday 27 March 16:00 GMT to Monday 30 March 09:00 BST (08:00 UTC).
    expect(between('2026-03-27T16:00:00Z', '2026-03-30T08:00:00Z')).toBe(2);
    // The weekend of the change counts nothing; Monday opens at 08:00 BST, 07:00 UTC.
    expect(between('2026-03-28T00:00:00Z', '2026-03-30T07:00:00Z')).toBe(0);
    expect(deadline('2026-03-27T16:00:00Z', { workingHours: 2 })).toBe('2026-03-30T08:00:00.000Z');
  });

  it('counts only opening hours, nothing when the second instant is not later, and whole days in between', () => {
    expect(between('2026-02-02T06:00:00Z', '2026-02-02T20:00:00Z')).toBe(9);
    expect(between('2026-02-02T12:00:00Z', '2026-02-02T12:00:00Z')).toBe(0);
    expect(between('2026-02-03T12:00:00Z', '2026-02-02T12:00:00Z')).toBe(0);
    // Monday 10:00 to the next Monday 10:00: 7 + 4 × 9 + 2.
    expect(between('2026-02-02T10:00:00Z', '2026-02-09T10:00:00Z')).toBe(45);
  });

  it('agrees with the deadline it measures: the working time to a working-hours deadline is the allowance', () => {
    for (const from of ['2026-02-06T16:30:00Z', '2026-03-27T15:00:00Z', '2025-12-31T16:00:00Z', '2026-10-23T14:00:00Z'])
      expect(workingTimeBetween(at(from), workingDeadline(at(from), { workingHours: 7 }, hours), hours) / HOUR).toBe(7);
  });
});

describe('plain hours', () => {
  it('count every hour of the clock, open or not', () => {
    expect(deadline('2026-02-06T16:30:00Z', { plainHours: 48 })).toBe('2026-02-08T16:30:00.000Z');
    expect(timeCounted(at('2026-02-06T16:30:00Z'), at('2026-02-09T09:15:00Z'), { plainHours: 48 }, hours) / HOUR).toBe(64.75);
    expect(timeCounted(at('2026-02-06T16:30:00Z'), at('2026-02-09T09:15:00Z'), { workingHours: 2 }, hours) / HOUR).toBe(1.75);
  });
});
