import 'server-only';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import { claimStageChanges as c } from '@/server/base/db-schema';

export type RecordedStageChange = Pick<
  typeof c.$inferSelect,
  'id' | 'stage' | 'waitingOn' | 'nextDate' | 'note' | 'tellCustomer' | 'changedAt'
>;

/** One change of a claim's stage, by its id: what the customer's e-mail and the CRM's `claim.updated` both tell. */
export async function findStageChange(db: Client, id: number | null): Promise<RecordedStageChange | null> {
  if (id === null) return null;
  const [change] = await orm(db)
    .select({
      id: c.id,
      stage: c.stage,
      waitingOn: c.waitingOn,
      nextDate: c.nextDate,
      note: c.note,
      tellCustomer: c.tellCustomer,
      changedAt: c.changedAt,
    })
    .from(c)
    .where(eq(c.id, id));
  return change ?? null;
}
