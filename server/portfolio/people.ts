import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import { organisationPeople } from '@/server/base/db-schema';
import { emailKey } from '@/server/base/email-key';

/**
 * The person of an organisation a link is for: the one row per address, or a new row for a link the
 * operator prints for the office (no address). A person whose link was revoked (a leaver) stays revoked
 * when asking from the site (null: no link is sent); only the operator's own `--link` gives them a new one.
 */
export async function personFor(
  db: Client,
  organisationId: number,
  address: string | null,
  now: number,
  asker: 'operator' | 'self-service',
): Promise<number | null> {
  const key = address === null ? null : emailKey(address);
  if (key !== null) {
    const [existing] = await orm(db)
      .select({ id: organisationPeople.id, revokedMs: organisationPeople.revokedMs })
      .from(organisationPeople)
      .where(and(eq(organisationPeople.organisationId, organisationId), eq(organisationPeople.emailKey, key)));
    if (existing) {
      if (existing.revokedMs === null) return existing.id;
      if (asker === 'self-service') return null;
      await orm(db)
        .update(organisationPeople)
        .set({ revokedMs: null, lastUsedMs: null, createdMs: now })
        .where(eq(organisationPeople.id, existing.id));
      return existing.id;
    }
  }
  const [created] = await orm(db)
    .insert(organisationPeople)
    .values({ organisationId, email: address?.trim() ?? null, emailKey: key, createdMs: now })
    .returning({ id: organisationPeople.id });
  return created!.id;
}
