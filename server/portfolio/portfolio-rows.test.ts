// An organisation's portfolio rows and summary against a real database: only its own accepted claims,
// newest first, filtered, with its stamps, drying and standings as the status page counts them.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimStage } from '@/lib/claim-stages';
import { enquiryReference } from '@/lib/enquiry-reference';
import type { PortfolioFilter, PortfolioRow } from '@/lib/portfolio/portfolio-row';
import { recordStageChange } from '@/server/claims/claim-status';
import { recordDryingVisit } from '@/server/claims/drying/record';
import { storeEnquiry } from '@/server/ledger/enquiry-store';
import { readStoredStandards } from '@/lib/portfolio/standards';
import { portfolioRows, portfolioSummary } from '@/server/portfolio/portfolio-rows';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { newEnquiry } from '@/tests/support/stored-enquiry';

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const at = (iso: string) => Date.parse(iso);
// Saturday 28 March 2026, noon (GMT; the clocks go forward the next day).
const NOW = at('2026-03-28T12:00:00.000Z');
const ALL: PortfolioFilter = { stage: null, state: 'all' };

async function organisation(name: string, standards: string | null): Promise<number> {
  const { rows } = await db.execute({
    sql: `INSERT INTO organisations (name, standards, created_ms, updated_ms) VALUES (?, ?, 0, 0) RETURNING id`,
    args: [name, standards],
  });
  return Number(rows[0]!.id);
}

let serial = 0;
/** An accepted instruction received at `receivedAt`, of `organisationId`, moved through `changes`. */
async function claim(
  organisationId: number | null,
  receivedAt: string,
  changes: [ClaimStage, string][] = [],
  extra: Parameters<typeof newEnquiry>[0] = {},
): Promise<{ id: number; reference: string }> {
  serial += 1;
  const stored = await storeEnquiry(
    db,
    newEnquiry({
      email: `office${serial}@adjusters.example`,
      phone: '07700 900123',
      message: `Instruction number ${serial}.`,
      claimRole: 'loss-adjuster',
      claimReference: `CLM-${serial}`,
      postcode: 'G67 1AA',
      damageType: 'water-damage',
      supportNeeds: 'Hard of hearing',
      ...extra,
    }),
    at(receivedAt),
  );
  await db.execute({ sql: 'UPDATE enquiries SET organisation_id = ? WHERE id = ?', args: [organisationId, stored.id] });
  for (const [stage, when] of changes)
    await recordStageChange(
      db,
      stored.id,
      { stage, waitingOn: null, nextDate: null, note: null, tellCustomer: false, source: 'staff', at: at(when) },
      NOW,
    );
  return { id: stored.id, reference: enquiryReference(stored.id) };
}

async function rowsOf(organisationId: number, filter: PortfolioFilter = ALL, batchSize?: number): Promise<PortfolioRow[][]> {
  const batches: PortfolioRow[][] = [];
  for await (const batch of portfolioRows(db, organisationId, filter, NOW, batchSize ? { batchSize } : {})) batches.push(batch);
  return batches;
}
const references = async (organisationId: number, filter: PortfolioFilter = ALL) =>
  (await rowsOf(organisationId, filter)).flat().map((row) => row.reference);

describe('an organisation’s portfolio rows', () => {
  it('are its own accepted claims only, newest first, never another organisation’s, a homeowner’s or spam', async () => {
    const adjusters = await organisation('Adjusters', null);
    const insurer = await organisation('Insurer', null);
    const older = await claim(adjusters, '2026-03-02T10:00:00.000Z');
    const theirs = await claim(insurer, '2026-03-03T10:00:00.000Z');
    const newer = await claim(adjusters, '2026-03-04T10:00:00.000Z');
    await claim(null, '2026-03-05T10:00:00.000Z', [], { claimRole: 'homeowner' });
    await claim(adjusters, '2026-03-06T10:00:00.000Z', [], { disposition: 'spam' });
    const sameTime = await claim(adjusters, '2026-03-04T10:00:00.000Z');

    // Received at the same time: the later reference first.
    expect(await references(adjusters)).toEqual([sameTime.reference, newer.reference, older.reference]);
    expect(await references(insurer)).toEqual([theirs.reference]);
    expect(await references(9999)).toEqual([]);
  });

  it('come in batches of the size asked for, in the same order as one batch', async () => {
    const adjusters = await organisation('Adjusters', null);
    const made: string[] = [];
    for (let day = 1; day <= 5; day += 1) made.unshift((await claim(adjusters, `2026-03-0${day}T10:00:00.000Z`)).reference);
    const batches = await rowsOf(adjusters, ALL, 2);
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
    expect(batches.flat().map((row) => row.reference)).toEqual(made);
  });

  it('are filtered by the current stage, and by open or closed (closed: completed)', async () => {
    const adjusters = await organisation('Adjusters', null);
    const received = await claim(adjusters, '2026-03-02T10:00:00.000Z');
    const surveyed = await claim(adjusters, '2026-03-03T10:00:00.000Z', [
      ['contacted', '2026-03-03T11:00:00.000Z'],
      ['surveyed', '2026-03-04T11:00:00.000Z'],
    ]);
    const completed = await claim(adjusters, '2026-03-04T10:00:00.000Z', [
      ['contacted', '2026-03-04T11:00:00.000Z'],
      ['completed', '2026-03-20T11:00:00.000Z'],
    ]);
    // Went back from surveyed to contacted: its stage now is contacted.
    const back = await claim(adjusters, '2026-03-05T10:00:00.000Z', [
      ['surveyed', '2026-03-05T11:00:00.000Z'],
      ['contacted', '2026-03-06T11:00:00.000Z'],
    ]);

    expect(await references(adjusters, { stage: 'surveyed', state: 'all' })).toEqual([surveyed.reference]);
    expect(await references(adjusters, { stage: 'contacted', state: 'all' })).toEqual([back.reference]);
    expect(await references(adjusters, { stage: null, state: 'open' })).toEqual([back.reference, surveyed.reference, received.reference]);
    expect(await references(adjusters, { stage: null, state: 'closed' })).toEqual([completed.reference]);
    expect(await references(adjusters, { stage: 'completed', state: 'open' })).toEqual([]);
    expect(await references(adjusters, { stage: 'received', state: 'open' })).toEqual([received.reference]);
  });

  it('give each column: references, postcode, damage in the form’s words, stage and since, stamps, drying, completion, days open', async () => {
    const adjusters = await organisation('Adjusters', '{"contact":{"workingHours":2},"report":{"plainHours":48}}');
    const { id, reference } = await claim(adjusters, '2026-03-02T09:00:00.000Z', [
      ['survey-booked', '2026-03-02T10:30:00.000Z'],
      ['surveyed', '2026-03-03T10:00:00.000Z'],
      ['with-insurer', '2026-03-06T10:00:00.000Z'],
      ['drying', '2026-03-09T09:00:00.000Z'],
      ['works-started', '2026-03-18T09:00:00.000Z'],
      ['completed', '2026-03-20T15:00:00.000Z'],
      // Saved again at the same stage (a note): it was completed at the first.
      ['completed', '2026-03-21T09:00:00.000Z'],
    ]);
    const reading = (value: number) => [{ location: 'Kitchen wall', material: 'plaster' as const, scale: 'wme' as const, value, goal: 12 }];
    const machine = { kind: 'dehumidifier' as const, model: 'Ebac 2650e', watts: 700, count: 1, on: '2026-03-09T08:30:00.000Z', kwh: null };
    await recordDryingVisit(
      db,
      id,
      { reference, visitAt: '2026-03-09T09:00:00.000Z', readings: reading(28), equipment: [{ ...machine, off: null }] },
      { source: 'crm', eventId: 'msg_1', now: NOW },
    );
    await recordDryingVisit(
      db,
      id,
      {
        reference,
        visitAt: '2026-03-16T09:00:00.000Z',
        readings: reading(11),
        equipment: [{ ...machine, off: '2026-03-16T09:00:00.000Z' }],
      },
      { source: 'crm', eventId: 'msg_2', now: NOW },
    );

    expect((await rowsOf(adjusters)).flat()).toEqual([
      {
        reference,
        claimNumber: expect.stringMatching(/^CLM-\d+$/),
        postcode: 'G67 1AA',
        damage: 'Water damage',
        stage: 'completed',
        stageSince: '2026-03-20T15:00:00.000Z',
        instructedAt: '2026-03-02T09:00:00.000Z',
        // A survey booked on the first call is the first contact.
        firstContactAt: '2026-03-02T10:30:00.000Z',
        surveyAt: '2026-03-03T10:00:00.000Z',
        reportAt: '2026-03-06T10:00:00.000Z',
        // The first machine went on before the first visit's reading.
        dryingStartedAt: '2026-03-09T08:30:00.000Z',
        dryingEndedAt: '2026-03-16T09:00:00.000Z',
        completedAt: '2026-03-20T15:00:00.000Z',
        daysOpen: 18,
        surveyBookedFor: null,
        open: false,
        // Contact in 1.5 working hours; the report 3 days (72 plain hours) after the survey: 24 h late.
        standards: {
          contact: { kind: 'met', words: 'met' },
          report: { kind: 'missed', byMs: 24 * 3_600_000, words: 'missed by 24 h' },
        },
      },
    ]);
  });

  it('count working hours across the weekend and a Scottish bank holiday, and say how long is left', async () => {
    const adjusters = await organisation('Adjusters', '{"contact":{"workingHours":2},"survey":{"workingDays":3}}');
    // Friday 6 March 16:30, first contact Monday 09:15: 1.75 working hours. Its survey was due Wednesday
    // 11 March at closing: 12 working days of 9 hours late by Saturday 28 March.
    await claim(adjusters, '2026-03-06T16:30:00.000Z', [['contacted', '2026-03-09T09:15:00.000Z']]);
    // Received Friday 27 March 15:00, not yet contacted on Saturday: 2 h from 15:00 ended at Friday's
    // closing, and no opening time has passed since. Three working days end on Wednesday 1 April at
    // closing: 27 working hours from Saturday (Monday to Wednesday).
    await claim(adjusters, '2026-03-27T15:00:00.000Z');
    // Received Friday 27 March 16:30: half an hour on Friday, due 09:30 BST on Monday (after the clocks change).
    await claim(adjusters, '2026-03-27T16:30:00.000Z');
    // Friday 2 January 2026, a Scottish bank holiday: the clock starts Monday 5 January at 08:00, so a
    // first contact at 09:30 is met (counted from the holiday it would have been due at 13:00 on the 2nd).
    // Its survey, due Thursday 8 January at closing, is 56 working days of 9 hours late.
    await claim(adjusters, '2026-01-02T11:00:00.000Z', [['contacted', '2026-01-05T09:30:00.000Z']]);
    const rows = (await rowsOf(adjusters)).flat();
    expect(
      rows.map((row) => [row.instructedAt, row.standards.contact?.words, row.standards.survey?.words, row.daysOpen, row.open]),
    ).toEqual([
      ['2026-03-27T16:30:00.000Z', 'due in 2 h', 'due in 27 h', 0, true],
      ['2026-03-27T15:00:00.000Z', 'missed by 1 min', 'due in 27 h', 0, true],
      ['2026-03-06T16:30:00.000Z', 'met', 'missed by 108 h', 21, true],
      ['2026-01-02T11:00:00.000Z', 'met', 'missed by 504 h', 85, true],
    ]);
  });

  it('hold an organisation with no standards of its own to none while the company’s are placeholders', async () => {
    const adjusters = await organisation('Adjusters', null);
    await claim(adjusters, '2026-03-06T16:30:00.000Z');
    expect((await rowsOf(adjusters)).flat()[0]!.standards).toEqual({});
  });
});

describe('an organisation’s summary', () => {
  it('gives the last 30 and 90 days of its own claims', async () => {
    const adjusters = await organisation('Adjusters', '{"contact":{"workingHours":2}}');
    const insurer = await organisation('Insurer', '{"contact":{"workingHours":2}}');
    // In the last 30 days: contacted in 1.75 working hours (met) and in 4 (missed); one completed.
    await claim(adjusters, '2026-03-06T16:30:00.000Z', [['contacted', '2026-03-09T09:15:00.000Z']]);
    await claim(adjusters, '2026-03-10T10:00:00.000Z', [
      ['contacted', '2026-03-10T14:00:00.000Z'],
      ['surveyed', '2026-03-11T10:00:00.000Z'],
      ['completed', '2026-03-25T10:00:00.000Z'],
    ]);
    // 60 days before: in the 90 only; contacted in 1 working hour.
    await claim(adjusters, '2026-01-27T10:00:00.000Z', [['contacted', '2026-01-27T11:00:00.000Z']]);
    // 100 days before: in neither.
    await claim(adjusters, '2025-12-18T10:00:00.000Z');
    // Another organisation's claim is not counted.
    await claim(insurer, '2026-03-20T10:00:00.000Z');

    expect(await portfolioSummary(db, adjusters, NOW)).toEqual([
      {
        days: 30,
        instructed: 2,
        open: 1,
        medianToContactHours: (1.75 + 4) / 2,
        medianToSurveyHours: 9,
        standardsMet: { contact: { share: 0.5, measured: 2 } },
      },
      {
        days: 90,
        instructed: 3,
        open: 2,
        medianToContactHours: 1.75,
        medianToSurveyHours: 9,
        standardsMet: { contact: { share: 2 / 3, measured: 3 } },
      },
    ]);
    expect((await portfolioSummary(db, insurer, NOW))[0]).toMatchObject({ instructed: 1, open: 1, medianToContactHours: null });
  });
});

describe('an organisation’s stored standards', () => {
  it('are read as allowances or as the operator’s codes; anything else is left out', () => {
    expect(readStoredStandards('{"contact":{"workingHours":2},"survey":"3wd","report":"48ph"}')).toEqual({
      contact: { workingHours: 2 },
      survey: { workingDays: 3 },
      report: { plainHours: 48 },
    });
    expect(readStoredStandards('{"contact":{"workingHours":-1},"survey":"3 days","other":"2h"}')).toEqual({});
    expect(readStoredStandards('not json')).toBeNull();
    expect(readStoredStandards(null)).toBeNull();
  });

  it('give the survey visit booked now, and whether its window ends within the survey standard', async () => {
    const held = await organisation('Held', '{"survey":{"workingDays":3}}');
    const unheld = await organisation('Unheld', null);
    // Instructed on Thursday 26 March: three working days end on Tuesday 31 March.
    const early = await claim(held, '2026-03-26T09:00:00.000Z', [['survey-booked', '2026-03-26T10:00:00.000Z']]);
    const late = await claim(held, '2026-03-26T09:30:00.000Z', [['survey-booked', '2026-03-26T10:00:00.000Z']]);
    const none = await claim(held, '2026-03-26T10:00:00.000Z');
    const other = await claim(unheld, '2026-03-26T11:00:00.000Z', [['survey-booked', '2026-03-26T12:00:00.000Z']]);
    const book = (id: number, date: string, window: string) =>
      db.execute({
        sql: `INSERT INTO survey_appointments (enquiry_id, uid, date, window, status, booked_by, created_ms, updated_ms)
          VALUES (?, ?, ?, ?, 'booked', 'customer', 0, 0)`,
        args: [id, `${id}@test`, date, window],
      });
    await book(early.id, '2026-03-30', 'am');
    await book(late.id, '2026-04-03', 'pm');
    await book(other.id, '2026-03-30', 'pm');
    const byReference = async (organisationId: number) =>
      Object.fromEntries((await rowsOf(organisationId)).flat().map((row) => [row.reference, row.surveyBookedFor]));
    expect(await byReference(held)).toEqual({
      [early.reference]: { words: 'Monday 30 March, morning, 8am to 1pm', withinStandard: true },
      [late.reference]: { words: 'Friday 3 April, afternoon, 12pm to 5pm', withinStandard: false },
      [none.reference]: null,
    });
    expect(await byReference(unheld)).toEqual({
      [other.reference]: { words: 'Monday 30 March, afternoon, 12pm to 5pm', withinStandard: null },
    });
  });
});
