import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq, sql } from 'drizzle-orm';
import { daysSinceFirstVisit, dryingStalled } from '@/lib/drying';
import { enquiryReference } from '@/lib/enquiry-reference';
import { dryingRecordOf } from '@/server/claims/drying/record';
import { orm } from '@/server/base/db';
import { claimStageChanges, enquiries } from '@/server/base/db-schema';

/** A claim at stage `drying`, for `npm run enquiries` and the digest. */
export type DryingClaim = {
  enquiryId: number;
  reference: string;
  /** Whole days since its first visit; null before any visit is recorded. */
  days: number | null;
  /** Its readings have not moved in three visits (lib/drying.ts dryingStalled). */
  stalled: boolean;
};

/** The accepted enquiries whose latest change (by time, then id) is to `drying`, longest drying first. */
export async function claimsDrying(db: Client, now: number): Promise<DryingClaim[]> {
  const c = claimStageChanges;
  const q = orm(db);
  const latest = q
    .select({
      enquiryId: c.enquiryId,
      stage: c.stage,
      newest: sql<number>`row_number() OVER (PARTITION BY ${c.enquiryId} ORDER BY ${c.changedMs} DESC, ${c.id} DESC)`.as('newest'),
    })
    .from(c)
    .as('latest');
  const rows = await q
    .select({ id: enquiries.id, reference: enquiries.reference })
    .from(enquiries)
    .innerJoin(latest, and(eq(latest.enquiryId, enquiries.id), eq(latest.newest, 1)))
    .where(and(eq(enquiries.disposition, 'accepted'), eq(latest.stage, 'drying')))
    .orderBy(enquiries.id);
  const claims = await Promise.all(
    rows.map(async (row): Promise<DryingClaim> => {
      const { readings } = await dryingRecordOf(db, row.id);
      return {
        enquiryId: row.id,
        reference: row.reference ?? enquiryReference(row.id),
        days: daysSinceFirstVisit(readings, now),
        stalled: dryingStalled(readings),
      };
    }),
  );
  return claims.sort((a, b) => (b.days ?? -1) - (a.days ?? -1) || a.enquiryId - b.enquiryId);
}

/** One claim drying in words: "12 days since the first visit; readings not moved in three visits". */
export function dryingWords(claim: Pick<DryingClaim, 'days' | 'stalled'>): string {
  const days = claim.days === null ? 'no visit recorded yet' : `${claim.days} day${claim.days === 1 ? '' : 's'} since the first visit`;
  return claim.stalled ? `${days}; readings not moved in three visits` : days;
}
