import 'server-only';
import { and, gte, lt, type SQL } from 'drizzle-orm';
import type { Client } from '@libsql/client';
import { damageTypeLabel, hasClaim, isInstructingRole, isUrgent } from '@/lib/contact-fields';
import { sourceOf } from '@/lib/visit-attribution';
import { orm } from '@/server/base/db';
import { enquiries } from '@/server/base/db-schema';

/** What one enquiry contributes to the statistics: its row's columns, as the table types them. */
type EnquiryForStats = Pick<
  typeof enquiries.$inferSelect,
  | 'receivedAt'
  | 'disposition'
  | 'landingPage'
  | 'referrer'
  | 'utmSource'
  | 'utmMedium'
  | 'damageType'
  | 'claimRole'
  | 'insurer'
  | 'claimReference'
  | 'damageDate'
  | 'postcode'
  | 'worsening'
  | 'habitable'
  | 'vulnerable'
  | 'policyholderName'
  | 'policyholderPhone'
  | 'propertyAddress'
  | 'vatRegistered'
  | 'excess'
  | 'desktopAssessment'
>;

type Tally = { key: string; count: number }[];

export type EnquiryStats = {
  /** Accepted enquiries counted; spam and suspect ones are left out and only counted. */
  counted: number;
  leftOut: number;
  byMonth: Tally;
  byLandingAndSource: { landingPage: string; source: string; count: number }[];
  byDamageType: Tally;
  claims: { claims: number; other: number };
  /** Accepted enquiries whose urgency answers made them urgent (counted above too). */
  urgent: number;
  /** Accepted enquiries that are an insurer's or a loss adjuster's instruction (counted above too). */
  instructions: number;
};

const NOT_RECORDED = '(not recorded)';

function tally(keys: readonly string[]): Tally {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count }));
}

const byCountThenKey = (a: { key: string; count: number }, b: { key: string; count: number }) =>
  b.count - a.count || a.key.localeCompare(b.key);

/** Counts by month (oldest first), by landing page and source, by type of damage (most first), claims against the rest, and urgent ones. */
function enquiryStats(rows: readonly EnquiryForStats[]): EnquiryStats {
  const counted = rows.filter((row) => row.disposition === 'accepted');
  const pairs = tally(counted.map((row) => JSON.stringify([row.landingPage ?? NOT_RECORDED, sourceOf(row)]))).sort(byCountThenKey);
  const claims = counted.filter(hasClaim).length;
  return {
    counted: counted.length,
    leftOut: rows.length - counted.length,
    byMonth: tally(counted.map((row) => row.receivedAt.slice(0, 7))).sort((a, b) => a.key.localeCompare(b.key)),
    byLandingAndSource: pairs.map(({ key, count }) => {
      const [landingPage, source] = JSON.parse(key) as [string, string];
      return { landingPage, source, count };
    }),
    byDamageType: tally(counted.map((row) => (row.damageType ? damageTypeLabel(row.damageType) : 'not given'))).sort(byCountThenKey),
    claims: { claims, other: counted.length - claims },
    urgent: counted.filter(isUrgent).length,
    instructions: counted.filter((row) => isInstructingRole(row.claimRole)).length,
  };
}

/** The enquiries' rows the statistics read, those `where` selects. */
async function rowsForStats(db: Client, where: SQL | undefined): Promise<EnquiryForStats[]> {
  const e = enquiries;
  return orm(db)
    .select({
      receivedAt: e.receivedAt,
      disposition: e.disposition,
      landingPage: e.landingPage,
      referrer: e.referrer,
      utmSource: e.utmSource,
      utmMedium: e.utmMedium,
      damageType: e.damageType,
      claimRole: e.claimRole,
      insurer: e.insurer,
      claimReference: e.claimReference,
      damageDate: e.damageDate,
      postcode: e.postcode,
      worsening: e.worsening,
      habitable: e.habitable,
      vulnerable: e.vulnerable,
      policyholderName: e.policyholderName,
      policyholderPhone: e.policyholderPhone,
      propertyAddress: e.propertyAddress,
      vatRegistered: e.vatRegistered,
      excess: e.excess,
      desktopAssessment: e.desktopAssessment,
    })
    .from(e)
    .where(where);
}

/** The statistics of the enquiries received on or after `since` (YYYY-MM-DD, UTC), or of all. */
export async function readEnquiryStats(db: Client, since?: string): Promise<EnquiryStats> {
  return enquiryStats(await rowsForStats(db, since ? gte(enquiries.receivedAt, since) : undefined));
}

/** The statistics of the enquiries received from `fromMs` up to (not including) `toMs`: the digest's period. */
export async function readEnquiryStatsBetween(db: Client, fromMs: number, toMs: number): Promise<EnquiryStats> {
  return enquiryStats(await rowsForStats(db, and(gte(enquiries.receivedMs, fromMs), lt(enquiries.receivedMs, toMs))));
}
