import 'server-only';
import type { Client } from '@libsql/client';
import { and, desc, eq, gt } from 'drizzle-orm';
import { staffVisitText } from '@/content/drying';
import { recordStageChange } from '@/server/claims/claim-status';
import { driedRefusalOf, locationWords } from '@/server/claims/drying/record';
import { orm } from '@/server/base/db';
import { claimStageChanges, dryingReadings, dryingVisits } from '@/server/base/db-schema';

/** The event id of the stage change a wet reading makes: it names why a certificate of dryness was withdrawn. */
export const READING_ABOVE_GOAL = 'reading-above-goal:';

/**
 * Dryness stays true: after a visit (its `eventId`, from the staff page or the CRM) with a reading
 * above its goal, a claim at `dried` whose record no longer meets every goal moves back to `drying`,
 * through the one stage-change path, at the visit's time (or just after the `dried` change when the
 * visit is timed before it, so that it is the claim's latest). The customer is told like any change,
 * the CRM too when its webhooks are on: the site made this change, so it is recorded as the site's
 * (`staff`), whichever side sent the visit. Once per visit (its event id), so calling it again for the
 * same visit changes nothing. True when the claim moved back.
 */
export async function reopenIfWet(
  db: Client,
  enquiryId: number,
  visitEventId: string,
  meta: { now: number; tellCrm: boolean },
): Promise<boolean> {
  const q = orm(db);
  const [visit] = await q
    .select({ id: dryingVisits.id, visitMs: dryingVisits.visitMs })
    .from(dryingVisits)
    .where(and(eq(dryingVisits.eventId, visitEventId), eq(dryingVisits.enquiryId, enquiryId)));
  if (!visit) return false;
  const wet = await q
    .select({ id: dryingReadings.id })
    .from(dryingReadings)
    .where(and(eq(dryingReadings.visitId, visit.id), gt(dryingReadings.value, dryingReadings.goal)));
  if (wet.length === 0) return false;
  const [latest] = await q
    .select({ stage: claimStageChanges.stage, changedMs: claimStageChanges.changedMs })
    .from(claimStageChanges)
    .where(eq(claimStageChanges.enquiryId, enquiryId))
    .orderBy(desc(claimStageChanges.changedMs), desc(claimStageChanges.id))
    .limit(1);
  if (latest?.stage !== 'dried') return false;
  const refusal = await driedRefusalOf(db, enquiryId);
  if (refusal?.kind !== 'above-goal') return false;
  const outcome = await recordStageChange(
    db,
    enquiryId,
    {
      stage: 'drying',
      waitingOn: null,
      nextDate: null,
      note: staffVisitText.reopenNote(locationWords(refusal.location)),
      tellCustomer: true,
      source: 'staff',
      at: Math.max(visit.visitMs, latest.changedMs + 1),
      eventId: `${READING_ABOVE_GOAL}${visitEventId}`,
      tellCrm: meta.tellCrm,
    },
    meta.now,
  );
  return outcome === 'current';
}
