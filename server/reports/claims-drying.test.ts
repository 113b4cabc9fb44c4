import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { daysSinceFirstVisit, dryingStalled, type StoredReading } from '@/lib/drying';
import { recordStageChange } from '@/server/claims/claim-status';
import { claimsDrying } from '@/server/reports/claims-drying';
import { recordDryingVisit } from '@/server/claims/drying/record';
import { composeDigest } from '@/server/reports/digest/sections';
import { gatherDigestFacts } from '@/server/reports/digest/facts';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const DAY = 86_400_000;
const reading = (visitAt: string, location: string, value: number, goal = 12): StoredReading => ({
  visitAt,
  location,
  material: 'plaster',
  scale: 'wme',
  value,
  goal,
});
const visits = (kitchen: number[], hall?: number[]) =>
  kitchen.flatMap((value, index) => {
    const at = `2026-12-0${index + 1}T10:00:00.000Z`;
    return [reading(at, 'Kitchen wall', value), ...(hall ? [reading(at, 'Hall wall', hall[index]!)] : [])];
  });

describe('readings not moved in three visits', () => {
  it('is never said of fewer than three visits', () => {
    expect(dryingStalled(visits([28, 28]))).toBe(false);
  });

  it('is said when no location above its goal reads lower at the last of three visits than at the first', () => {
    expect(dryingStalled(visits([28, 28, 28]))).toBe(true);
    // Up then back: no fall over the three visits.
    expect(dryingStalled(visits([28, 26, 28]))).toBe(true);
    // Risen.
    expect(dryingStalled(visits([28, 29, 30]))).toBe(true);
  });

  it('is not said while any location above its goal is falling', () => {
    expect(dryingStalled(visits([28, 28, 27]))).toBe(false);
    expect(dryingStalled(visits([28, 28, 28], [30, 25, 20]))).toBe(false);
  });

  it('reads only the last three visits', () => {
    expect(dryingStalled(visits([40, 30, 28, 28, 28]))).toBe(true);
    expect(dryingStalled(visits([28, 28, 28, 28, 20]))).toBe(false);
  });

  it('is not said once every location has met its goal, and a location at its goal does not count as moving', () => {
    expect(dryingStalled(visits([12, 12, 12]))).toBe(false);
    expect(dryingStalled(visits([28, 28, 28], [12, 11, 10]))).toBe(true);
  });

  it('counts whole days from the first visit', () => {
    expect(daysSinceFirstVisit([], Date.parse('2026-12-05T10:00:00Z'))).toBeNull();
    expect(daysSinceFirstVisit(visits([28, 20]), Date.parse('2026-12-05T09:59:59Z'))).toBe(3);
    expect(daysSinceFirstVisit(visits([28, 20]), Date.parse('2026-12-05T10:00:00Z'))).toBe(4);
  });
});

let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

/** An accepted enquiry moved to `drying`, with a visit a day reading the kitchen wall `kitchen[i]` %WME, the first `daysAgo` days before `now`. */
async function claimDrying(now: number, daysAgo: number, kitchen: number[]) {
  const claim = await submitEnquiryAt(db, now - (daysAgo + 1) * DAY);
  await recordStageChange(
    db,
    claim.id,
    { stage: 'drying', waitingOn: null, nextDate: null, note: null, tellCustomer: false, source: 'staff' },
    now - daysAgo * DAY - 1000,
  );
  for (const [index, value] of kitchen.entries()) {
    const visitAt = new Date(now - (daysAgo - index) * DAY).toISOString();
    const visit = { reference: claim.reference, visitAt, readings: [reading(visitAt, 'Kitchen wall', value)], equipment: [] };
    await recordDryingVisit(db, claim.id, visit, { source: 'staff', eventId: `msg_${claim.id}_${index}`, now });
  }
  return claim;
}

describe('the owner’s view of claims drying', () => {
  it('lists the claims at drying, longest first, with their days and whether their readings have moved', async () => {
    const now = Date.parse('2026-11-23T08:00:30Z');
    const falling = await claimDrying(now, 5, [30, 24, 18]);
    const stalled = await claimDrying(now, 9, [28, 28, 29]);
    const noVisit = await claimDrying(now, 1, []);
    const moved = await submitEnquiryAt(db, now - 20 * DAY);
    await recordStageChange(
      db,
      moved.id,
      { stage: 'drying', waitingOn: null, nextDate: null, note: null, tellCustomer: false, source: 'staff' },
      now - 10 * DAY,
    );
    await recordStageChange(
      db,
      moved.id,
      { stage: 'works-booked', waitingOn: null, nextDate: null, note: null, tellCustomer: false, source: 'staff' },
      now - DAY,
    );

    expect(await claimsDrying(db, now)).toEqual([
      { enquiryId: stalled.id, reference: stalled.reference, days: 9, stalled: true },
      { enquiryId: falling.id, reference: falling.reference, days: 5, stalled: false },
      { enquiryId: noVisit.id, reference: noVisit.reference, days: null, stalled: false },
    ]);

    const window = {
      mode: 'weekly' as const,
      covers: { fromMs: now - 7 * DAY, toMs: now },
      partial: false,
      previous: { fromMs: now - 14 * DAY, toMs: now - 7 * DAY },
    };
    const { text, html } = composeDigest(await gatherDigestFacts(db, window, { now }));
    expect(text).toContain(
      'DRYING\n3 claims drying out now:\n' +
        `- ${stalled.reference}: 9 days since the first visit; readings not moved in three visits\n` +
        `- ${falling.reference}: 5 days since the first visit\n` +
        `- ${noVisit.reference}: no visit recorded yet\n` +
        'Readings not moved in three visits: 1 (no location above its goal reads lower than three visits ago).\n',
    );
    expect(html).toContain('<h2 style="font-size:1.1em;margin-top:1.2em">Drying</h2>');
  });

  it('has no drying section when no claim is drying', async () => {
    const now = Date.parse('2026-11-23T08:00:30Z');
    await submitEnquiryAt(db, now - DAY);
    const window = {
      mode: 'weekly' as const,
      covers: { fromMs: now - 7 * DAY, toMs: now },
      partial: false,
      previous: { fromMs: now - 14 * DAY, toMs: now - 7 * DAY },
    };
    expect(composeDigest(await gatherDigestFacts(db, window, { now })).text).not.toContain('DRYING');
  });

  it('npm run enquiries shows each claim drying under its stage', async () => {
    const now = Date.now();
    const stalled = await claimDrying(now, 4, [28, 28, 28]);
    const listing = await runToEnd(spawnTs('scripts/enquiries.ts', [], { DATABASE_URL: url, CRM_WEBHOOK_URL: '', CRM_WEBHOOK_SECRET: '' }));
    expect(listing.code, listing.stderr).toBe(0);
    const stage = listing.lines.indexOf('    stage: Drying out');
    expect(stage).toBeGreaterThan(0);
    expect(listing.lines[stage + 1]).toBe('    drying: 4 days since the first visit; readings not moved in three visits');
    const json = await runToEnd(
      spawnTs('scripts/enquiries.ts', ['--json'], { DATABASE_URL: url, CRM_WEBHOOK_URL: '', CRM_WEBHOOK_SECRET: '' }),
    );
    expect(JSON.parse(json.lines.join('\n'))).toEqual([
      expect.objectContaining({ reference: stalled.reference, drying: { days: 4, stalled: true } }),
    ]);
  }, 30_000);
});
