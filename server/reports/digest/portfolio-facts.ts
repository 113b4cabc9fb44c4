import 'server-only';
import type { Client } from '@libsql/client';
import { and, asc, count, countDistinct, eq, gte, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { business } from '@/content/business';
import { heldStandards, standardStanding } from '@/lib/portfolio/standing';
import { allowanceCode, readStoredStandards, STANDARD_KEYS, type StandardKey } from '@/lib/portfolio/standards';
import { orm } from '@/server/base/db';
import { claimStageChanges, enquiries, organisations, portfolioAccessLog } from '@/server/base/db-schema';
import { domainOfAddress } from '@/server/ledger/instructing-organisation';

/** How one standard went for the claims an organisation instructed in the digest's period. */
export type StandardTally = { key: StandardKey; code: string; met: number; missed: number; due: number };

/** An organisation in the digest: how often its people opened their view, and how its standards went. */
export type PortfolioDigest = {
  name: string;
  /** Times its portfolio was opened (a link traded or the page viewed) in the period, and by how many people. */
  opened: number;
  people: number;
  downloads: number;
  /** Claims it instructed in the period, and each of its standards over them. */
  claims: number;
  standards: StandardTally[];
  /** Instructions in the period from an address at one of its domains, by domain, not yet proven its (server/claims/instruction-proof.ts). */
  unconfirmed: { domain: string; count: number }[];
};

/**
 * For the digest: each organisation whose people opened its portfolio in `covers`, or which instructed
 * claims in it, with how each of its standards went over those claims as they stand at `now`.
 */
export async function portfolioDigest(db: Client, covers: { fromMs: number; toMs: number }, now: number): Promise<PortfolioDigest[]> {
  const q = orm(db);
  const inCovers = and(gte(portfolioAccessLog.atMs, covers.fromMs), lt(portfolioAccessLog.atMs, covers.toMs));
  const uses = await q
    .select({ organisationId: portfolioAccessLog.organisationId, action: portfolioAccessLog.action, times: count() })
    .from(portfolioAccessLog)
    .where(and(inArray(portfolioAccessLog.action, ['opened', 'viewed', 'downloaded']), inCovers))
    .groupBy(portfolioAccessLog.organisationId, portfolioAccessLog.action);
  const openers = await q
    .select({ organisationId: portfolioAccessLog.organisationId, people: countDistinct(portfolioAccessLog.personId) })
    .from(portfolioAccessLog)
    .where(and(inArray(portfolioAccessLog.action, ['opened', 'viewed']), inCovers))
    .groupBy(portfolioAccessLog.organisationId);
  const claims = await q
    .select({ id: enquiries.id, organisationId: enquiries.organisationId, receivedAt: enquiries.receivedAt })
    .from(enquiries)
    .where(
      and(
        isNotNull(enquiries.organisationId),
        eq(enquiries.disposition, 'accepted'),
        gte(enquiries.receivedMs, covers.fromMs),
        lt(enquiries.receivedMs, covers.toMs),
      ),
    );
  const waiting = await q
    .select({ organisationId: enquiries.claimedOrganisationId, email: enquiries.email })
    .from(enquiries)
    .where(
      and(
        isNotNull(enquiries.claimedOrganisationId),
        isNull(enquiries.organisationId),
        eq(enquiries.disposition, 'accepted'),
        gte(enquiries.receivedMs, covers.fromMs),
        lt(enquiries.receivedMs, covers.toMs),
      ),
    );
  const ids = new Set([
    ...uses.map((use) => use.organisationId),
    ...claims.map((claim) => claim.organisationId!),
    ...waiting.map((claim) => claim.organisationId!),
  ]);
  if (ids.size === 0) return [];
  const named = await q
    .select({ id: organisations.id, name: organisations.name, standards: organisations.standards })
    .from(organisations)
    .where(inArray(organisations.id, [...ids]))
    .orderBy(asc(organisations.name));
  const changes = claims.length
    ? await q
        .select({ enquiryId: claimStageChanges.enquiryId, stage: claimStageChanges.stage, at: claimStageChanges.changedAt })
        .from(claimStageChanges)
        .where(
          inArray(
            claimStageChanges.enquiryId,
            claims.map((claim) => claim.id),
          ),
        )
        .orderBy(asc(claimStageChanges.changedMs), asc(claimStageChanges.id))
    : [];
  return named.map((organisation) => {
    const used = (actions: string[]) => uses.filter((use) => use.organisationId === organisation.id && actions.includes(use.action));
    const opens = used(['opened', 'viewed']);
    const theirs = claims.filter((claim) => claim.organisationId === organisation.id);
    const held = heldStandards(readStoredStandards(organisation.standards), business.forInsurers);
    const standards = STANDARD_KEYS.flatMap((key): StandardTally[] => {
      const allowance = held[key];
      if (!allowance) return [];
      const tally: StandardTally = { key, code: allowanceCode(allowance), met: 0, missed: 0, due: 0 };
      for (const claim of theirs) {
        const standing = standardStanding(
          { receivedAt: claim.receivedAt, changes: changes.filter((change) => change.enquiryId === claim.id) },
          key,
          allowance,
          business.openingHours,
          now,
        );
        if (standing.kind !== 'not-measured') tally[standing.kind] += 1;
      }
      return [tally];
    });
    return {
      name: organisation.name,
      opened: opens.reduce((sum, use) => sum + use.times, 0),
      people: openers.find((each) => each.organisationId === organisation.id)?.people ?? 0,
      downloads: used(['downloaded']).reduce((sum, use) => sum + use.times, 0),
      claims: theirs.length,
      standards,
      unconfirmed: countedByDomain(waiting.filter((claim) => claim.organisationId === organisation.id).map((claim) => claim.email)),
    };
  });
}

function countedByDomain(addresses: readonly string[]): { domain: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const address of addresses) {
    const domain = domainOfAddress(address) ?? '';
    counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([domain, count]) => ({ domain, count }));
}
