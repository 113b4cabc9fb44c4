import { describe, expect, it } from 'vitest';
import {
  addDays,
  instantAt,
  latestDuePeriod,
  periodContaining,
  periodOfDate,
  previousPeriod,
  wallClock,
} from '@/server/reports/digest/period';

const at = (iso: string) => Date.parse(iso);
const HOUR = 60 * 60_000;

describe('digest periods in Europe/London', () => {
  it('starts the week on Monday at 08:00 London time, GMT in winter and BST in summer', () => {
    expect(periodContaining(at('2026-01-14T12:00:00Z'), 'weekly')).toEqual({
      mode: 'weekly',
      key: 'weekly:2026-01-12',
      startDate: '2026-01-12',
      startMs: at('2026-01-12T08:00:00Z'),
      endMs: at('2026-01-19T08:00:00Z'),
    });
    expect(periodContaining(at('2026-07-15T12:00:00Z'), 'weekly')).toMatchObject({
      key: 'weekly:2026-07-13',
      startMs: at('2026-07-13T07:00:00Z'),
      endMs: at('2026-07-20T07:00:00Z'),
    });
  });

  it('puts Monday before 08:00 in the week before, and 08:00 itself in the new week', () => {
    expect(periodContaining(at('2026-11-23T07:59:59.999Z'), 'weekly').key).toBe('weekly:2026-11-16');
    expect(periodContaining(at('2026-11-23T08:00:00Z'), 'weekly').key).toBe('weekly:2026-11-23');
    expect(periodContaining(at('2026-11-23T00:30:00Z'), 'daily').key).toBe('daily:2026-11-22');
  });

  it('gives the week of the March change 167 hours: it starts at 08:00 GMT and ends at 08:00 BST', () => {
    // Clocks go forward at 01:00 UTC on Sunday 29 March 2026 (the last Sunday of March).
    const week = periodContaining(at('2026-03-29T01:30:00Z'), 'weekly');
    expect(week).toMatchObject({ key: 'weekly:2026-03-23', startMs: at('2026-03-23T08:00:00Z'), endMs: at('2026-03-30T07:00:00Z') });
    expect(week.endMs - week.startMs).toBe(167 * HOUR);
    expect(periodContaining(at('2026-03-30T06:59:59.999Z'), 'weekly').key).toBe('weekly:2026-03-23');
    expect(periodContaining(at('2026-03-30T07:00:00Z'), 'weekly').key).toBe('weekly:2026-03-30');
    // The day of the change is 23 hours long.
    const day = periodContaining(at('2026-03-29T03:00:00Z'), 'daily');
    expect(day).toMatchObject({ key: 'daily:2026-03-28', startMs: at('2026-03-28T08:00:00Z'), endMs: at('2026-03-29T07:00:00Z') });
  });

  it('gives the week of the October change 169 hours: it starts at 08:00 BST and ends at 08:00 GMT', () => {
    // Clocks go back at 01:00 UTC on Sunday 25 October 2026 (the last Sunday of October).
    const week = periodContaining(at('2026-10-25T01:30:00Z'), 'weekly');
    expect(week).toMatchObject({ key: 'weekly:2026-10-19', startMs: at('2026-10-19T07:00:00Z'), endMs: at('2026-10-26T08:00:00Z') });
    expect(week.endMs - week.startMs).toBe(169 * HOUR);
    expect(periodContaining(at('2026-10-26T07:30:00Z'), 'weekly').key).toBe('weekly:2026-10-19');
    const day = periodContaining(at('2026-10-25T00:59:00Z'), 'daily');
    expect(day).toMatchObject({ key: 'daily:2026-10-24', startMs: at('2026-10-24T07:00:00Z'), endMs: at('2026-10-25T08:00:00Z') });
    expect(day.endMs - day.startMs).toBe(25 * HOUR);
  });

  it('tiles two years without gap or overlap, every period starting at 08:00 local, weeks on a Monday', () => {
    for (const mode of ['weekly', 'daily'] as const) {
      let period = periodContaining(at('2026-01-01T12:00:00Z'), mode);
      while (period.startMs < at('2028-01-01T00:00:00Z')) {
        const start = wallClock(period.startMs);
        expect([start.date, start.hour, start.minute]).toEqual([period.startDate, 8, 0]);
        if (mode === 'weekly') expect(new Date(`${period.startDate}T12:00:00Z`).getUTCDay()).toBe(1);
        const next = periodContaining(period.endMs, mode);
        expect(next.startMs).toBe(period.endMs);
        expect(previousPeriod(next)).toEqual(period);
        expect(periodContaining(period.endMs - 1, mode)).toEqual(period);
        period = next;
      }
    }
  });

  it('knows which period is due: the latest that has ended', () => {
    expect(latestDuePeriod(at('2026-11-23T08:00:00Z'), 'weekly').key).toBe('weekly:2026-11-16');
    expect(latestDuePeriod(at('2026-11-23T07:59:00Z'), 'weekly').key).toBe('weekly:2026-11-09');
    expect(latestDuePeriod(at('2026-11-25T09:00:00Z'), 'daily').key).toBe('daily:2026-11-24');
  });

  it('reads --period as the period holding that day', () => {
    expect(periodOfDate('2026-03-29', 'weekly').key).toBe('weekly:2026-03-23');
    expect(periodOfDate('2026-03-30', 'weekly').key).toBe('weekly:2026-03-30');
    expect(periodOfDate('2026-10-25', 'daily').key).toBe('daily:2026-10-25');
  });

  it('converts local times and calendar days both ways', () => {
    expect(instantAt('2026-10-25', 8)).toBe(at('2026-10-25T08:00:00Z'));
    expect(instantAt('2026-10-24', 8)).toBe(at('2026-10-24T07:00:00Z'));
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(wallClock(at('2026-06-30T23:30:00Z'))).toMatchObject({ date: '2026-07-01', hour: 0, minute: 30 });
  });
});
