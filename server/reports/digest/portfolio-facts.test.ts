// The digest's section on the insurers' own views, against a real database: which organisations opened
// their view in the week, and how each of their standards went for the claims they instructed in it.
import type { Client } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimStage } from '@/lib/claim-stages';
import { orm } from '@/server/base/db';
import { organisationPeople, organisations, portfolioAccessLog } from '@/server/base/db-schema';
import { recordStageChange } from '@/server/claims/claim-status';
import { gatherDigestFacts } from '@/server/reports/digest/facts';
import { periodContaining, previousPeriod } from '@/server/reports/digest/period';
import { portfolioDigest } from '@/server/reports/digest/portfolio-facts';
import { composeDigest } from '@/server/reports/digest/sections';
import { submitEnquiryAt } from '@/tests/support/digest-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';

const at = (iso: string) => Date.parse(iso);
// Monday 16 November 2026 08:00 to Monday 23 November 08:00 (GMT: London is on UTC), sent just after.
const week = periodContaining(at('2026-11-18T12:00:00Z'), 'weekly');
const sendTime = at('2026-11-23T08:00:30Z');
const covers = { fromMs: week.startMs, toMs: week.endMs };

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

async function organisation(name: string, standards: string | null) {
  const [row] = await orm(db)
    .insert(organisations)
    .values({ name, standards, createdMs: covers.fromMs, updatedMs: covers.fromMs })
    .returning({ id: organisations.id });
  return row!.id;
}

async function person(organisationId: number, email: string) {
  const [row] = await orm(db)
    .insert(organisationPeople)
    .values({ organisationId, email, emailKey: email, createdMs: covers.fromMs })
    .returning({ id: organisationPeople.id });
  return row!.id;
}

async function claim(organisationId: number, receivedIso: string, changes: [ClaimStage, string][]) {
  const { id } = await submitEnquiryAt(db, at(receivedIso));
  await db.execute({ sql: 'UPDATE enquiries SET organisation_id = ? WHERE id = ?', args: [organisationId, id] });
  for (const [stage, iso] of changes)
    await recordStageChange(
      db,
      id,
      { stage, waitingOn: null, nextDate: null, note: null, tellCustomer: false, source: 'staff', at: at(iso) },
      at(iso),
    );
}

const logUse = (organisationId: number, personId: number, action: 'opened' | 'viewed' | 'downloaded' | 'link-sent', iso: string) =>
  orm(db)
    .insert(portfolioAccessLog)
    .values({ organisationId, personId, action, atMs: at(iso) });

describe("the digest's insurers' views", () => {
  it('names who opened their view in the week and tallies each standard over the claims instructed in it', async () => {
    const direct = await organisation('Claims Direct', JSON.stringify({ contact: { workingHours: 2 }, survey: { workingDays: 3 } }));
    const adjusters = await organisation('Loss Adjusters Ltd', null);
    await organisation('Quiet Mutual', null);

    // Contact 1.5 working hours after (met), survey two days later (met), no report yet (due Monday's close).
    await claim(direct, '2026-11-17T10:00:00Z', [
      ['contacted', '2026-11-17T11:30:00Z'],
      ['surveyed', '2026-11-19T10:00:00Z'],
    ]);
    // Contact 5 hours after (missed 2 h), no survey yet (3 working days: due Monday 23 at 17:00).
    await claim(direct, '2026-11-18T10:00:00Z', [['contacted', '2026-11-18T15:00:00Z']]);
    // The week before: not counted.
    await claim(direct, '2026-11-10T10:00:00Z', [['contacted', '2026-11-12T10:00:00Z']]);

    const ann = await person(adjusters, 'ann@adjusters.example');
    const bob = await person(adjusters, 'bob@adjusters.example');
    await logUse(adjusters, ann, 'opened', '2026-11-17T09:00:00Z');
    await logUse(adjusters, ann, 'viewed', '2026-11-17T09:00:01Z');
    await logUse(adjusters, bob, 'viewed', '2026-11-20T16:00:00Z');
    await logUse(adjusters, bob, 'downloaded', '2026-11-20T16:01:00Z');
    await logUse(adjusters, bob, 'link-sent', '2026-11-20T15:00:00Z');
    await logUse(adjusters, bob, 'viewed', '2026-11-24T09:00:00Z');

    const digests = await portfolioDigest(db, covers, sendTime);
    expect(digests.map((each) => each.name)).toEqual(['Claims Direct', 'Loss Adjusters Ltd']);

    const before = previousPeriod(week);
    const facts = await gatherDigestFacts(
      db,
      { mode: 'weekly', covers, partial: false, previous: { fromMs: before.startMs, toMs: before.endMs } },
      { now: sendTime },
    );
    const { text, html } = composeDigest(facts);
    expect(text).toContain(
      [
        "INSURERS' VIEWS",
        'Opened their view this week:',
        '- Loss Adjusters Ltd: opened 3 times by 2 people, CSV downloaded 1 time',
        'Claims Direct: 2 claims instructed this week, against its standards now:',
        '- contact (2h): 1 met, 1 missed',
        '- survey (3wd): 1 met, 0 missed, 1 still due',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('Quiet Mutual');
    expect(html).toContain('Insurers&#39; views');
  });

  it('says no organisation opened its view, and leaves the section out with no organisation at all', async () => {
    const direct = await organisation('Claims Direct', JSON.stringify({ contact: { workingHours: 4 } }));
    await claim(direct, '2026-11-17T10:00:00Z', []);
    const { text } = composeDigest(
      await gatherDigestFacts(
        db,
        { mode: 'weekly', covers, partial: false, previous: { fromMs: covers.fromMs - 7 * 86_400_000, toMs: covers.fromMs } },
        { now: sendTime },
      ),
    );
    expect(text).toContain(
      'No organisation opened its view this week.\nClaims Direct: 1 claim instructed this week, against its standards now:\n- contact (4h): 0 met, 1 missed\n',
    );
    expect(await portfolioDigest(db, { fromMs: 0, toMs: covers.fromMs }, sendTime)).toEqual([]);
  });

  it('holds an organisation with none of its own to no standard while the company’s are placeholders, as its page does', async () => {
    const quiet = await organisation('Quiet Mutual', null);
    await claim(quiet, '2026-11-17T10:00:00Z', [['contacted', '2026-11-18T15:00:00Z']]);
    expect(await portfolioDigest(db, covers, sendTime)).toMatchObject([{ name: 'Quiet Mutual', claims: 1, standards: [] }]);
    const { text } = composeDigest(
      await gatherDigestFacts(
        db,
        { mode: 'weekly', covers, partial: false, previous: { fromMs: covers.fromMs - 7 * 86_400_000, toMs: covers.fromMs } },
        { now: sendTime },
      ),
    );
    expect(text).toContain(
      "Quiet Mutual: 1 claim instructed this week; no standards to measure them by (none of its own, and the company's are not yet confirmed).\n",
    );
  });

  it('lists the instructions from an organisation’s domains that are not yet confirmed, by domain, apart from its claims', async () => {
    const direct = await organisation('Claims Direct', JSON.stringify({ contact: { workingHours: 4 } }));
    await claim(direct, '2026-11-17T10:00:00Z', []);
    const waiting = async (email: string, iso: string) => {
      const { id } = await submitEnquiryAt(db, at(iso));
      await db.execute({ sql: 'UPDATE enquiries SET email = ?, claimed_organisation_id = ? WHERE id = ?', args: [email, direct, id] });
    };
    await waiting('anyone@direct.example', '2026-11-17T11:00:00Z');
    await waiting('desk@Direct.Example', '2026-11-18T11:00:00Z');
    await waiting('desk@claims-direct.example', '2026-11-19T11:00:00Z');
    await waiting('desk@direct.example', '2026-11-10T11:00:00Z'); // the week before
    expect(await portfolioDigest(db, covers, sendTime)).toMatchObject([
      {
        name: 'Claims Direct',
        claims: 1,
        unconfirmed: [
          { domain: 'claims-direct.example', count: 1 },
          { domain: 'direct.example', count: 2 },
        ],
      },
    ]);
    const { text } = composeDigest(
      await gatherDigestFacts(
        db,
        { mode: 'weekly', covers, partial: false, previous: { fromMs: covers.fromMs - 7 * 86_400_000, toMs: covers.fromMs } },
        { now: sendTime },
      ),
    );
    expect(text).toContain(
      [
        'Not in their views until their senders confirm them or the CRM names the organisation:',
        '- Claims Direct: 1 instruction from an address at claims-direct.example, not yet confirmed',
        '- Claims Direct: 2 instructions from an address at direct.example, not yet confirmed',
        '',
      ].join('\n'),
    );
  });
});
