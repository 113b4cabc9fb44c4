import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import type { ClaimStage } from '@/lib/claim-stages';
import type { ResponseStandards } from '@/lib/insurer-times';
import { durationWords, heldStandards, portfolioPeriod, standardStanding, standingsOf, type PeriodRow } from '@/lib/portfolio/standing';
import type { StandardStanding } from '@/lib/portfolio/portfolio-row';

const hours = business.openingHours;
const HOUR = 3_600_000;
const claim = (receivedAt: string, changes: [ClaimStage, string][] = []) => ({
  receivedAt,
  changes: changes.map(([stage, at]) => ({ stage, at })),
});
const words = (standing: StandardStanding) => standing.words;

describe('a claim against a standard in working hours', () => {
  it('across a weekend: instructed Friday 16:30, first contact Monday 09:15 (1.75 working hours) is met against 2 h', () => {
    const friday = claim('2026-02-06T16:30:00.000Z', [['contacted', '2026-02-09T09:15:00.000Z']]);
    expect(standardStanding(friday, 'contact', { workingHours: 2 }, hours, Date.parse('2026-02-10T12:00:00Z'))).toEqual({
      kind: 'met',
      words: 'met',
    });
    // Against 1 working hour it was due Monday 08:30: 45 working minutes late.
    expect(standardStanding(friday, 'contact', { workingHours: 1 }, hours, Date.parse('2026-02-10T12:00:00Z'))).toEqual({
      kind: 'missed',
      byMs: 0.75 * HOUR,
      words: 'missed by 45 min',
    });
  });

  it('instructed on Friday 2 January 2026, a Scottish bank holiday: the clock starts Monday 5 January at 08:00', () => {
    const holiday = claim('2026-01-02T11:00:00.000Z');
    // Monday 07:00: still 3 h before the 2 h deadline of 10:00, of which only the 2 h from opening count.
    expect(standardStanding(holiday, 'contact', { workingHours: 2 }, hours, Date.parse('2026-01-05T07:00:00Z')).words).toBe('due in 2 h');
    expect(standardStanding(holiday, 'contact', { workingHours: 2 }, hours, Date.parse('2026-01-05T09:00:00Z')).words).toBe('due in 1 h');
    expect(standardStanding(holiday, 'contact', { workingHours: 2 }, hours, Date.parse('2026-01-05T13:00:00Z')).words).toBe(
      'missed by 3 h',
    );
  });

  it('across the clocks going forward on 29 March 2026: Friday 16:00 GMT + 2 h is due Monday 09:00 BST', () => {
    const spring = claim('2026-03-27T16:00:00.000Z', [['contacted', '2026-03-30T08:00:00.000Z']]);
    expect(words(standardStanding(spring, 'contact', { workingHours: 2 }, hours, Date.parse('2026-03-31T12:00:00Z')))).toBe('met');
    const late = claim('2026-03-27T16:00:00.000Z', [['contacted', '2026-03-30T08:01:00.000Z']]);
    expect(words(standardStanding(late, 'contact', { workingHours: 2 }, hours, Date.parse('2026-03-31T12:00:00Z')))).toBe(
      'missed by 1 min',
    );
  });

  it('says the time left or the time late in whole hours rounded up, minutes under an hour', () => {
    const monday = claim('2026-02-02T08:00:00.000Z');
    const at = (iso: string) => words(standardStanding(monday, 'contact', { workingHours: 8 }, hours, Date.parse(iso)));
    expect(at('2026-02-02T08:00:00Z')).toBe('due in 8 h');
    expect(at('2026-02-02T11:00:00Z')).toBe('due in 5 h');
    expect(at('2026-02-02T11:30:00Z')).toBe('due in 5 h');
    expect(at('2026-02-02T15:20:00Z')).toBe('due in 40 min');
    // Exactly at the deadline: still due.
    expect(at('2026-02-02T16:00:00Z')).toBe('due in 1 min');
    expect(at('2026-02-02T16:00:01Z')).toBe('missed by 1 min');
    // Monday 16:00 deadline; Tuesday 10:00 is 3 working hours on (1 on Monday, 2 on Tuesday).
    expect(at('2026-02-03T10:00:00Z')).toBe('missed by 3 h');
    expect(at('2026-02-03T09:59:00Z')).toBe('missed by 3 h');
    expect(at('2026-02-03T09:00:00Z')).toBe('missed by 2 h');
  });
});

describe('working days and plain hours', () => {
  it('a survey in 3 working days counts its lateness in working hours', () => {
    // Monday 2 February: due by Thursday 5 February at 17:00; surveyed Friday 10:00 is 2 working hours late.
    const late = claim('2026-02-02T10:00:00.000Z', [['surveyed', '2026-02-06T10:00:00.000Z']]);
    expect(standardStanding(late, 'survey', { workingDays: 3 }, hours, Date.parse('2026-02-07T10:00:00Z'))).toEqual({
      kind: 'missed',
      byMs: 2 * HOUR,
      words: 'missed by 2 h',
    });
    expect(
      words(standardStanding(claim('2026-02-02T10:00:00.000Z'), 'survey', { workingDays: 3 }, hours, Date.parse('2026-02-05T12:00:00Z'))),
    ).toBe('due in 5 h');
  });

  it('a report in 48 plain hours counts every hour from the survey, weekend and night alike', () => {
    const surveyed = claim('2026-02-02T10:00:00.000Z', [
      ['surveyed', '2026-02-06T15:00:00.000Z'],
      ['with-insurer', '2026-02-09T09:00:00.000Z'],
    ]);
    // Due Sunday 15:00; sent Monday 09:00: 18 h late on the plain clock (0 working hours on the working clock would say nothing).
    expect(standardStanding(surveyed, 'report', { plainHours: 48 }, hours, Date.parse('2026-02-10T10:00:00Z'))).toEqual({
      kind: 'missed',
      byMs: 18 * HOUR,
      words: 'missed by 18 h',
    });
    const waiting = claim('2026-02-02T10:00:00.000Z', [['surveyed', '2026-02-06T15:00:00.000Z']]);
    expect(words(standardStanding(waiting, 'report', { plainHours: 48 }, hours, Date.parse('2026-02-07T15:00:00Z')))).toBe('due in 24 h');
  });

  it('is not measured before its start is reached, or when the claim moved on without it', () => {
    const notSurveyed = claim('2026-02-02T10:00:00.000Z', [['contacted', '2026-02-02T11:00:00.000Z']]);
    expect(standardStanding(notSurveyed, 'report', { workingDays: 2 }, hours, Date.parse('2026-03-02T10:00:00Z'))).toEqual({
      kind: 'not-measured',
      words: '',
    });
    const desk = claim('2026-02-02T10:00:00.000Z', [['with-insurer', '2026-02-02T15:00:00.000Z']]);
    expect(standardStanding(desk, 'survey', { workingDays: 3 }, hours, Date.parse('2026-03-02T10:00:00Z')).kind).toBe('not-measured');
    // A survey booked on the first call is the first contact, as on the status page.
    const booked = claim('2026-02-02T10:00:00.000Z', [['survey-booked', '2026-02-02T11:00:00.000Z']]);
    expect(words(standardStanding(booked, 'contact', { workingHours: 2 }, hours, Date.parse('2026-03-02T10:00:00Z')))).toBe('met');
  });

  it('gives one standing per standard held, in order', () => {
    const standings = standingsOf(
      claim('2026-02-02T10:00:00.000Z', [['contacted', '2026-02-02T11:00:00.000Z']]),
      { survey: { workingDays: 3 }, contact: { workingHours: 2 } },
      hours,
      Date.parse('2026-02-03T10:00:00Z'),
    );
    expect(Object.entries(standings).map(([key, standing]) => [key, standing.words])).toEqual([
      ['contact', 'met'],
      ['survey', 'due in 25 h'],
    ]);
  });
});

describe('the words for an amount of time', () => {
  it('rounds up: minutes under an hour, at least one; whole hours from an hour', () => {
    expect([0, 1, 59_000, 60_000, 61_000, 59.5 * 60_000, HOUR, HOUR + 1, 3 * HOUR, 100 * HOUR].map(durationWords)).toEqual([
      '1 min',
      '1 min',
      '1 min',
      '1 min',
      '2 min',
      '1 h',
      '1 h',
      '2 h',
      '3 h',
      '100 h',
    ]);
  });
});

describe('the standards an organisation is held to', () => {
  const company: ResponseStandards = {
    placeholder: false,
    responseStandards: [
      {
        term: 'First contact',
        detail: 'Within 4 working hours',
        measure: { from: 'received', to: 'contacted', within: { workingHours: 4 } },
      },
      { term: 'Survey visit', detail: 'Within 2 working days', measure: { from: 'received', to: 'surveyed', within: { workingDays: 2 } } },
    ],
  };

  it('its own, else the company’s confirmed ones; none of the company’s while they are placeholders', () => {
    expect(heldStandards({ contact: { workingHours: 2 } }, company)).toEqual({ contact: { workingHours: 2 }, survey: { workingDays: 2 } });
    expect(heldStandards(null, { ...company, placeholder: true })).toEqual({});
    expect(heldStandards({ report: { plainHours: 48 } }, { ...company, placeholder: true })).toEqual({ report: { plainHours: 48 } });
  });
});

describe('the summary of a period', () => {
  const now = Date.parse('2026-03-31T12:00:00Z');
  const met: StandardStanding = { kind: 'met', words: 'met' };
  const missed: StandardStanding = { kind: 'missed', byMs: HOUR, words: 'missed by 1 h' };
  const due: StandardStanding = { kind: 'due', inMs: HOUR, words: 'due in 1 h' };
  const row = (instructedAt: string, extra: Partial<PeriodRow> = {}): PeriodRow => ({
    instructedAt,
    firstContactAt: null,
    surveyAt: null,
    open: true,
    standards: {},
    ...extra,
  });
  const rows: PeriodRow[] = [
    // Monday 30 March 10:00 BST; contacted at 11:00 BST (1 h), surveyed Tuesday 10:00 BST (7 h on Monday, 2 on Tuesday).
    row('2026-03-30T09:00:00.000Z', {
      firstContactAt: '2026-03-30T10:00:00.000Z',
      surveyAt: '2026-03-31T09:00:00.000Z',
      standards: { contact: met, survey: met },
    }),
    // Friday 6 March 16:30 GMT, first contact Monday 09:15: 1.75 working hours; completed.
    row('2026-03-06T16:30:00.000Z', {
      firstContactAt: '2026-03-09T09:15:00.000Z',
      open: false,
      standards: { contact: missed, survey: due },
    }),
    // Tuesday 3 March 10:00: contacted at 14:00 (4 h).
    row('2026-03-03T10:00:00.000Z', { firstContactAt: '2026-03-03T14:00:00.000Z', standards: { contact: met } }),
    // 60 days ago: in the 90-day period only.
    row('2026-01-30T10:00:00.000Z', { firstContactAt: '2026-01-30T12:00:00.000Z', open: false, standards: { contact: missed } }),
    // 100 days ago: in neither.
    row('2025-12-21T10:00:00.000Z', { standards: { contact: met } }),
  ];
  const standards = { contact: { workingHours: 2 }, survey: { workingDays: 3 } };

  it('counts the claims instructed in it, those still open, medians of working hours, and the share of each standard met', () => {
    expect(portfolioPeriod(rows, 30, standards, hours, now)).toEqual({
      days: 30,
      instructed: 3,
      open: 2,
      medianToContactHours: 1.75,
      medianToSurveyHours: 9,
      standardsMet: { contact: { share: 2 / 3, measured: 3 }, survey: { share: 1, measured: 1 } },
    });
    expect(portfolioPeriod(rows, 90, standards, hours, now)).toEqual({
      days: 90,
      instructed: 4,
      open: 2,
      medianToContactHours: (1.75 + 2) / 2,
      medianToSurveyHours: 9,
      standardsMet: { contact: { share: 0.5, measured: 4 }, survey: { share: 1, measured: 1 } },
    });
  });

  it('says nothing of a median or a share it has nothing for', () => {
    expect(portfolioPeriod([row('2026-03-30T09:00:00.000Z')], 30, { report: { plainHours: 48 } }, hours, now)).toEqual({
      days: 30,
      instructed: 1,
      open: 1,
      medianToContactHours: null,
      medianToSurveyHours: null,
      standardsMet: { report: { share: null, measured: 0 } },
    });
  });
});
