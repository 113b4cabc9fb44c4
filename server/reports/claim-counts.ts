import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, eq, sql } from 'drizzle-orm';
import { CLAIM_STAGE_NAMES, isClaimStage, type ClaimStage } from '@/lib/claim-stages';
import { orm } from '@/server/base/db';
import { claimStageChanges, enquiries } from '@/server/base/db-schema';
import { DIGEST_TIME_ZONE, wallClock } from '@/server/reports/digest/period';

/**
 * Where the accepted enquiries stand, for `npm run health` and the digest: how many are at each stage,
 * and how many of those have a next date earlier than today in the UK and are not completed.
 */
export type ClaimCounts = {
  byStage: { stage: ClaimStage; claims: number; pastNextDate: number }[];
  pastNextDate: number;
};

/**
 * One query: each accepted enquiry's latest change (by time, then id, as claimStatus orders them),
 * or `received` when it has none, counted per stage.
 */
export async function countClaimsByStage(db: Client, now: number): Promise<ClaimCounts> {
  const c = claimStageChanges;
  const today = wallClock(now, DIGEST_TIME_ZONE).date;
  const q = orm(db);
  const latest = q
    .select({
      enquiryId: c.enquiryId,
      stage: c.stage,
      nextDate: c.nextDate,
      newest: sql<number>`row_number() OVER (PARTITION BY ${c.enquiryId} ORDER BY ${c.changedMs} DESC, ${c.id} DESC)`.as('newest'),
    })
    .from(c)
    .as('latest');
  const stage = sql<string>`coalesce(${latest.stage}, 'received')`;
  const rows = await q
    .select({
      stage,
      claims: count(),
      pastNextDate: sql<number>`coalesce(sum(${latest.nextDate} < ${today} AND ${latest.stage} <> 'completed'), 0)`.mapWith(Number),
    })
    .from(enquiries)
    .leftJoin(latest, and(eq(latest.enquiryId, enquiries.id), eq(latest.newest, 1)))
    .where(eq(enquiries.disposition, 'accepted'))
    .groupBy(stage);
  const byStage = CLAIM_STAGE_NAMES.flatMap((name) => {
    const row = rows.find((each) => isClaimStage(each.stage) && each.stage === name);
    return row ? [{ stage: name, claims: row.claims, pastNextDate: row.pastNextDate }] : [];
  });
  return { byStage, pastNextDate: byStage.reduce((sum, row) => sum + row.pastNextDate, 0) };
}
