import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import {
  bookingClosesAt,
  isOffered,
  meetsStandard,
  OFFERED_WORKING_DAYS,
  offeredDates,
  parseLocalDate,
  parseWindowValue,
  reminderDueAt,
  todayAndNextWorkingDay,
  surveyStandard,
  windowSpan,
  windowValue,
  windowWords,
} from '@/lib/survey-windows';

const hours = business.openingHours;
const at = (iso: string) => Date.parse(iso);

describe('the survey windows offered', () => {
  it('from a Friday afternoon, Monday’s windows are the first; after 17:00 on Friday, Tuesday’s', () => {
    // Friday 4 December 2026, 15:00 GMT.
    const friday = at('2026-12-04T15:00:00Z');
    expect(offeredDates(friday, hours)[0]).toBe('2026-12-07');
    expect(offeredDates(at('2026-12-04T16:59:59Z'), hours)[0]).toBe('2026-12-07');
    expect(offeredDates(at('2026-12-04T17:00:00Z'), hours)[0]).toBe('2026-12-08');
    // Never the same day, even first thing in the morning.
    expect(offeredDates(at('2026-12-07T06:00:00Z'), hours)[0]).toBe('2026-12-08');
  });

  it('offers the next 15 working days, weekends and Scottish bank holidays left out', () => {
    const dates = offeredDates(at('2026-11-26T10:00:00Z'), hours);
    expect(dates).toHaveLength(OFFERED_WORKING_DAYS);
    // Friday 27 November, then Tuesday 1 December: Monday 30 November is St Andrew's Day.
    expect(dates.slice(0, 2)).toEqual(['2026-11-27', '2026-12-01']);
    expect(dates).not.toContain('2026-11-30');
    expect(dates).not.toContain('2026-11-28');
    expect(dates.at(-1)).toBe('2026-12-18');
    // Christmas: the 25th and the 28th (Boxing Day's substitute) are not working days.
    const christmas = offeredDates(at('2026-12-21T10:00:00Z'), hours);
    expect(christmas).not.toContain('2026-12-25');
    expect(christmas).not.toContain('2026-12-28');
  });

  it('a window closes at 17:00 on the working day before, across a bank holiday too', () => {
    // Tuesday 1 December's working day before is Friday 27 November (Monday is St Andrew's Day).
    expect(new Date(bookingClosesAt(parseLocalDate('2026-12-01')!, hours)).toISOString()).toBe('2026-11-27T17:00:00.000Z');
    expect(isOffered({ date: '2026-12-01', window: 'am' }, at('2026-11-29T12:00:00Z'), hours)).toBe(false);
    expect(isOffered({ date: '2026-12-02', window: 'pm' }, at('2026-11-29T12:00:00Z'), hours)).toBe(true);
  });

  it('keeps the London clock across the clocks going back: Monday 26 October 2026 booked on Friday 23 October', () => {
    const friday = at('2026-10-23T14:00:00Z'); // 15:00 BST
    expect(offeredDates(friday, hours)[0]).toBe('2026-10-26');
    // 08:00 GMT on the Monday (the clocks went back on Sunday 25 October), and it closed at 17:00 BST on Friday.
    expect(windowSpan({ date: '2026-10-26', window: 'am' }, hours)).toEqual({
      startMs: at('2026-10-26T08:00:00Z'),
      endMs: at('2026-10-26T13:00:00Z'),
    });
    expect(new Date(bookingClosesAt(parseLocalDate('2026-10-26')!, hours)).toISOString()).toBe('2026-10-23T16:00:00.000Z');
    // A summer window is an hour earlier in UTC.
    expect(windowSpan({ date: '2026-06-01', window: 'pm' }, hours).startMs).toBe(at('2026-06-01T11:00:00Z'));
  });

  it('says a window in words, and reads one back only in its own form', () => {
    expect(windowWords({ date: '2026-12-01', window: 'am' })).toBe('Tuesday 1 December, morning, 8am to 1pm');
    expect(windowWords({ date: '2026-12-04', window: 'pm' })).toBe('Friday 4 December, afternoon, 12pm to 5pm');
    expect(parseWindowValue(windowValue({ date: '2026-12-01', window: 'pm' }))).toEqual({ date: '2026-12-01', window: 'pm' });
    for (const bad of ['2026-02-30-am', '2026-12-01-eve', '2026-12-01', '', 'x'.repeat(5000), 42, null])
      expect(parseWindowValue(bad), String(bad)).toBeNull();
  });
});

describe('windows against an instruction’s survey standard', () => {
  const stamps = (outcome: { kind: 'due'; by: string } | { kind: 'met' }, confirmed = true) => ({
    standardsConfirmed: confirmed,
    stamps: [{ stage: 'surveyed' as const, at: null, standard: { term: 'Survey visit', detail: 'Within 2 working days', outcome } }],
  });

  it('marks the windows that end by the deadline, only while the survey is due under confirmed standards', () => {
    // Instructed Tuesday 1 December 10:00: 2 working days is Thursday 3 December at 17:00.
    const standard = surveyStandard(stamps({ kind: 'due', by: '2026-12-03T17:00:00.000Z' }));
    expect(standard).toEqual({ detail: 'Within 2 working days', deadlineMs: at('2026-12-03T17:00:00Z') });
    expect(meetsStandard({ date: '2026-12-03', window: 'pm' }, standard!.deadlineMs, hours)).toBe(true);
    expect(meetsStandard({ date: '2026-12-04', window: 'am' }, standard!.deadlineMs, hours)).toBe(false);
    expect(surveyStandard(stamps({ kind: 'due', by: '2026-12-03T17:00:00.000Z' }, false))).toBeNull();
    expect(surveyStandard(stamps({ kind: 'met' }))).toBeNull();
    expect(surveyStandard(null)).toBeNull();
  });
});

describe('the reminder of a visit', () => {
  it('is due at 18:00 London time on the working day before, over a weekend and a bank holiday', () => {
    const friday = at('2026-12-04T15:00:00Z');
    expect(new Date(reminderDueAt({ date: '2026-12-07', window: 'am' }, friday, hours)).toISOString()).toBe('2026-12-04T18:00:00.000Z');
    // Tuesday 1 December: the working day before is Friday 27 November (Monday 30 November is St Andrew's Day).
    expect(new Date(reminderDueAt({ date: '2026-12-01', window: 'pm' }, at('2026-11-20T10:00:00Z'), hours)).toISOString()).toBe(
      '2026-11-27T18:00:00.000Z',
    );
  });

  it('keeps 18:00 on the London clock around the clocks going back (Friday 23 October is British Summer Time)', () => {
    expect(new Date(reminderDueAt({ date: '2026-10-26', window: 'am' }, at('2026-10-20T10:00:00Z'), hours)).toISOString()).toBe(
      '2026-10-23T17:00:00.000Z',
    );
  });

  it('is due at once for a visit booked after that time', () => {
    const late = at('2026-12-04T19:30:00Z');
    expect(reminderDueAt({ date: '2026-12-07', window: 'am' }, late, hours)).toBe(late);
  });
});

describe('the company’s day list', () => {
  it('is today and the next working day on the London clock: from a Friday, the Monday; before St Andrew’s Day, the Tuesday', () => {
    expect(todayAndNextWorkingDay(at('2026-12-04T23:30:00Z'), hours)).toEqual(['2026-12-04', '2026-12-07']);
    expect(todayAndNextWorkingDay(at('2026-11-27T10:00:00Z'), hours)).toEqual(['2026-11-27', '2026-12-01']);
    // 23:30 GMT on 31 October is still Saturday 31 October (the clocks went back on the 25th).
    expect(todayAndNextWorkingDay(at('2026-10-31T23:30:00Z'), hours)).toEqual(['2026-10-31', '2026-11-02']);
  });
});
