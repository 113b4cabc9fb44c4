// `npm run bench:survey [-- --runs 7]`: how long offering the survey windows and booking one take with
// 2,000 open claims and 500 visits booked across the 15 working days offered, in a database file of its
// own: milliseconds (median, min, max) of the windows a status page lists (`freeWindows`) and of a
// booking (`bookSurvey`: the insert that counts the window's places, and the stage change with its
// e-mail and CRM event), `runs` times each after a warm-up. Not a test: the figures depend on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { business } from '../../content/business';
import { SURVEY_WINDOWS, offeredDates } from '../../lib/survey-windows';
import { openDatabase } from '../../server/base/db';
import { newFormToken } from '../../server/claims/pages/page-context';
import { bookSurvey, freeWindows, setWindowCapacity } from '../../server/claims/survey-booking';
import { submitEnquiryAt } from '../../tests/support/digest-store';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Math.max(1, Number(values.runs) || 7);
const CLAIMS = 2_000;
const BOOKED = 500;

const median = (list: readonly number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const summary = (list: readonly number[]) =>
  `median ${median(list).toFixed(1)}, min ${Math.min(...list).toFixed(1)}, max ${Math.max(...list).toFixed(1)}`;

const folder = mkdtempSync(path.join(tmpdir(), 'homecare-bench-survey-'));
try {
  const db = await openDatabase(`file:${path.join(folder, 'site.db')}`);
  const hours = business.openingHours;
  const now = Date.now();
  const dates = offeredDates(now, hours);
  const windows = dates.flatMap((date) => SURVEY_WINDOWS.map(({ name }) => ({ date, window: name })));
  // Room for the 500 visits across the windows offered (28 or 30) of 20 places each.
  await setWindowCapacity(db, { fromDate: dates[0]!, window: null, capacity: 20, source: 'operator', now });
  const claims: number[] = [];
  for (let index = 0; index < CLAIMS; index += 1) claims.push((await submitEnquiryAt(db, now - 60_000)).id);
  const request = (enquiryId: number, index: number) => ({
    enquiryId,
    stage: 'received' as const,
    slot: windows[index % windows.length]!,
    formToken: newFormToken(),
    now,
    hours,
    tellCrm: true,
  });
  for (let index = 0; index < BOOKED; index += 1) {
    const outcome = await bookSurvey(db, request(claims[index]!, index));
    if (outcome.kind !== 'booked') throw new Error(`setting up: booking ${index} was refused: ${outcome.reason}`);
  }
  console.log(`${CLAIMS} claims, ${BOOKED} visits booked in ${dates.length} working days' windows`);

  await freeWindows(db, now, hours);
  const offering: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await freeWindows(db, now, hours);
    offering.push(performance.now() - started);
  }
  console.log(`windows offered (a status page's list): ${summary(offering)} ms`);

  const booking: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const outcome = await bookSurvey(db, request(claims[BOOKED + run]!, run));
    if (outcome.kind !== 'booked') throw new Error(`booking ${run} was refused: ${outcome.reason}`);
    if (run > 0) booking.push(performance.now() - started);
  }
  console.log(`a booking (the place, the stage change, its e-mail and CRM event): ${summary(booking)} ms`);
  db.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
