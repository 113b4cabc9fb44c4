import { describe, expect, it } from 'vitest';
import { business } from '@/content/business';
import type { ClaimStage } from '@/lib/claim-stages';
import { insurerTimes, type InsurerTimesInput, type ResponseStandards } from '@/lib/insurer-times';

// Standards the company has confirmed (not the placeholders in content/business.ts): first contact in
// 4 working hours, the survey in 2 working days, the report 2 working days after the survey.
const confirmed: ResponseStandards = {
  placeholder: false,
  responseStandards: [
    { term: 'Instruction acknowledged', detail: 'Within 2 working hours' },
    {
      term: 'First contact',
      detail: 'Within 4 working hours',
      measure: { from: 'received', to: 'contacted', within: { workingHours: 4 } },
    },
    { term: 'Survey visit', detail: 'Within 2 working days', measure: { from: 'received', to: 'surveyed', within: { workingDays: 2 } } },
    {
      term: 'Report',
      detail: 'Within 2 working days of the survey',
      measure: { from: 'surveyed', to: 'with-insurer', within: { workingDays: 2 } },
    },
  ],
};

// Received Monday 2 February 2026 at 10:00 (GMT).
const receivedAt = '2026-02-02T10:00:00.000Z';
const times = (changes: [ClaimStage, string][], now: string, standards = confirmed) =>
  insurerTimes({
    receivedAt,
    changes: changes.map(([stage, at]) => ({ stage, at })),
    standards,
    hours: business.openingHours,
    now: Date.parse(now),
  } satisfies InsurerTimesInput);
const outcomes = (result: ReturnType<typeof times>) =>
  Object.fromEntries(result.stamps.map((stamp) => [stamp.stage, stamp.standard?.outcome ?? null]));

describe('an instruction’s times against confirmed standards', () => {
  it('stamps each first time, met when in time, missed when late, due by the deadline while still in time', () => {
    const result = times(
      [
        ['contacted', '2026-02-02T13:00:00.000Z'],
        ['survey-booked', '2026-02-02T13:05:00.000Z'],
        // Thursday: the survey was due by Wednesday at 17:00.
        ['surveyed', '2026-02-05T09:00:00.000Z'],
      ],
      '2026-02-06T12:00:00.000Z',
    );
    expect(result.standardsConfirmed).toBe(true);
    expect(result.stamps.map((stamp) => [stamp.stage, stamp.at])).toEqual([
      ['received', receivedAt],
      ['contacted', '2026-02-02T13:00:00.000Z'],
      ['surveyed', '2026-02-05T09:00:00.000Z'],
      ['with-insurer', null],
    ]);
    expect(outcomes(result)).toEqual({
      // The acknowledgement has no measure: nothing is claimed for the instruction's arrival.
      received: null,
      contacted: { kind: 'met' },
      surveyed: { kind: 'missed' },
      // Two working days from Thursday's survey: Monday at 17:00.
      'with-insurer': { kind: 'due', by: '2026-02-09T17:00:00.000Z' },
    });
    expect(result.stamps[1]!.standard).toMatchObject({ term: 'First contact', detail: 'Within 4 working hours' });
  });

  it('reached exactly at the deadline is met; a minute after is missed', () => {
    expect(outcomes(times([['contacted', '2026-02-02T14:00:00.000Z']], '2026-02-03T12:00:00.000Z')).contacted).toEqual({ kind: 'met' });
    expect(outcomes(times([['contacted', '2026-02-02T14:01:00.000Z']], '2026-02-03T12:00:00.000Z')).contacted).toEqual({
      kind: 'missed',
    });
  });

  it('not reached: due until the deadline, missed after it', () => {
    expect(outcomes(times([], '2026-02-02T14:00:00.000Z')).contacted).toEqual({ kind: 'due', by: '2026-02-02T14:00:00.000Z' });
    expect(outcomes(times([], '2026-02-02T14:00:01.000Z')).contacted).toEqual({ kind: 'missed' });
    expect(outcomes(times([], '2026-02-04T17:00:00.000Z')).surveyed).toEqual({ kind: 'due', by: '2026-02-04T17:00:00.000Z' });
    expect(outcomes(times([], '2026-02-05T08:00:00.000Z')).surveyed).toEqual({ kind: 'missed' });
  });

  it('the report is not counted before there is a survey to count from', () => {
    expect(outcomes(times([], '2026-03-01T12:00:00.000Z'))['with-insurer']).toEqual({ kind: 'not-measured' });
    expect(outcomes(times([['with-insurer', '2026-02-03T12:00:00.000Z']], '2026-03-01T12:00:00.000Z'))['with-insurer']).toEqual({
      kind: 'not-measured',
    });
  });

  it('keeps the first time a stage was reached when the claim goes back to it', () => {
    const result = times(
      [
        ['contacted', '2026-02-02T11:00:00.000Z'],
        ['on-hold', '2026-02-02T12:00:00.000Z'],
        ['contacted', '2026-02-03T15:00:00.000Z'],
      ],
      '2026-02-03T16:00:00.000Z',
    );
    expect(result.stamps[1]).toMatchObject({ at: '2026-02-02T11:00:00.000Z', standard: { outcome: { kind: 'met' } } });
  });

  it('counts the company’s opening hours: an instruction on Friday evening is first contacted in time on Monday morning', () => {
    const result = insurerTimes({
      receivedAt: '2026-02-06T19:30:00.000Z',
      changes: [{ stage: 'contacted', at: '2026-02-09T11:45:00.000Z' }],
      standards: confirmed,
      hours: business.openingHours,
      now: Date.parse('2026-02-09T12:00:00.000Z'),
    });
    expect(result.stamps[1]!.standard?.outcome).toEqual({ kind: 'met' });
  });
});

describe('Scottish bank holidays on the working clock', () => {
  it('an instruction on Friday 2 January 2026 is counted from Monday 5 January at 08:00', () => {
    const received = (changes: [ClaimStage, string][], now: string) =>
      outcomes(
        insurerTimes({
          receivedAt: '2026-01-02T10:30:00.000Z',
          changes: changes.map(([stage, at]) => ({ stage, at })),
          standards: confirmed,
          hours: business.openingHours,
          now: Date.parse(now),
        }),
      );
    // Four working hours from Monday's opening: due by 12:00, not by Friday 14:30 as if the holiday were open.
    expect(received([], '2026-01-02T15:00:00.000Z').contacted).toEqual({ kind: 'due', by: '2026-01-05T12:00:00.000Z' });
    expect(received([['contacted', '2026-01-05T11:59:00.000Z']], '2026-01-05T13:00:00.000Z').contacted).toEqual({ kind: 'met' });
    // Two working days: Tuesday and Wednesday after Monday, so Wednesday 7 January at 17:00.
    expect(received([], '2026-01-05T09:00:00.000Z').surveyed).toEqual({ kind: 'due', by: '2026-01-07T17:00:00.000Z' });
  });
});

describe('a claim moved past a stamp without stopping there', () => {
  it('a survey booked on the first call is the first contact; a survey and a report are only their own stages', () => {
    const result = times(
      [
        ['survey-booked', '2026-02-02T11:00:00.000Z'],
        ['drying', '2026-02-02T15:00:00.000Z'],
        ['works-started', '2026-02-03T09:00:00.000Z'],
      ],
      '2026-02-04T12:00:00.000Z',
    );
    const at = Object.fromEntries(result.stamps.map((stamp) => [stamp.stage, stamp.at]));
    expect(at).toEqual({
      received: receivedAt,
      contacted: '2026-02-02T11:00:00.000Z',
      surveyed: null,
      'with-insurer': null,
      drying: '2026-02-02T15:00:00.000Z',
      dried: null,
    });
  });

  it('a claim moved on without a survey (assessed from the desk) is not marked as missing one', () => {
    const result = times([['with-insurer', '2026-02-02T15:00:00.000Z']], '2026-03-01T12:00:00.000Z');
    expect(outcomes(result)).toMatchObject({ surveyed: { kind: 'not-measured' }, 'with-insurer': { kind: 'not-measured' } });
  });

  it('a hold is not a contact', () => {
    const result = times([['on-hold', '2026-02-02T11:00:00.000Z']], '2026-02-02T12:00:00.000Z');
    expect(result.stamps.find((stamp) => stamp.stage === 'contacted')?.at).toBeNull();
  });
});

describe('drying out', () => {
  // A standard for drying, as the company could set one: dried within 15 working days of drying starting.
  const withDrying: ResponseStandards = {
    ...confirmed,
    responseStandards: [
      ...confirmed.responseStandards,
      {
        term: 'Dried',
        detail: 'Within 15 working days of drying starting',
        measure: { from: 'drying', to: 'dried', within: { workingDays: 15 } },
      },
    ],
  };
  const drying: [ClaimStage, string][] = [
    ['contacted', '2026-02-02T11:00:00.000Z'],
    ['surveyed', '2026-02-03T10:00:00.000Z'],
    ['drying', '2026-02-03T12:00:00.000Z'],
  ];

  it('has no drying rows on a claim that has not been drying', () => {
    expect(times(drying.slice(0, 2), '2026-02-04T12:00:00.000Z', withDrying).stamps.map((stamp) => stamp.stage)).toEqual([
      'received',
      'contacted',
      'surveyed',
      'with-insurer',
    ]);
  });

  it('stamps drying started and dried, with dried beside the standard that sets one', () => {
    const running = times(drying, '2026-02-10T12:00:00.000Z', withDrying);
    expect(running.stamps.map((stamp) => [stamp.stage, stamp.at])).toEqual([
      ['received', receivedAt],
      ['contacted', '2026-02-02T11:00:00.000Z'],
      ['surveyed', '2026-02-03T10:00:00.000Z'],
      ['with-insurer', null],
      ['drying', '2026-02-03T12:00:00.000Z'],
      ['dried', null],
    ]);
    // 15 working days from Tuesday 3 February: the close of Tuesday 24 February.
    expect(outcomes(running).dried).toEqual({ kind: 'due', by: '2026-02-24T17:00:00.000Z' });
    expect(running.stamps[5]!.standard).toMatchObject({ term: 'Dried', detail: 'Within 15 working days of drying starting' });
    expect(outcomes(running).drying).toBeNull();

    const done = times([...drying, ['dried', '2026-02-20T09:00:00.000Z']], '2026-02-21T12:00:00.000Z', withDrying);
    expect(outcomes(done).dried).toEqual({ kind: 'met' });
    const late = times([...drying, ['dried', '2026-02-25T09:00:00.000Z']], '2026-02-26T12:00:00.000Z', withDrying);
    expect(outcomes(late).dried).toEqual({ kind: 'missed' });
  });

  it('without a standard for it, dried is a time alone; moved on to the works without it, it is not counted', () => {
    expect(times([...drying, ['dried', '2026-02-20T09:00:00.000Z']], '2026-02-21T12:00:00.000Z').stamps[5]).toEqual({
      stage: 'dried',
      at: '2026-02-20T09:00:00.000Z',
      standard: null,
    });
    const movedOn = times([...drying, ['works-booked', '2026-03-20T09:00:00.000Z']], '2026-03-21T12:00:00.000Z', withDrying);
    expect(outcomes(movedOn).dried).toEqual({ kind: 'not-measured' });
  });
});

describe('the company’s own standards', () => {
  it('only a standard with a measure is stamped against: the acknowledgement and the make-safe are not', () => {
    const measured = business.forInsurers.responseStandards.filter((standard) => standard.measure).map((standard) => standard.measure?.to);
    expect(measured).toEqual(['contacted', 'surveyed', 'with-insurer']);
    const result = times([], '2026-02-02T11:00:00.000Z', { ...business.forInsurers, placeholder: false });
    expect(result.stamps.map((stamp) => stamp.standard?.detail ?? null)).toEqual([
      null,
      'Within 4 working hours',
      'Within 2 working days',
      'Within 2 working days of the survey',
    ]);
  });

  it('while they are placeholders, shows the times and no standard, and says they are not confirmed', () => {
    expect(business.forInsurers.placeholder).toBe(true);
    const result = times([['contacted', '2026-02-03T16:00:00.000Z']], '2026-02-20T12:00:00.000Z', business.forInsurers);
    expect(result.standardsConfirmed).toBe(false);
    expect(result.stamps.map((stamp) => [stamp.stage, stamp.at, stamp.standard])).toEqual([
      ['received', receivedAt, null],
      ['contacted', '2026-02-03T16:00:00.000Z', null],
      ['surveyed', null, null],
      ['with-insurer', null, null],
    ]);
  });
});
