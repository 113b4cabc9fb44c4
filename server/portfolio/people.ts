import 'server-only';
import type { Client } from '@libsql/client';
import { and, eq, isNotNull } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import { organisationPeople } from '@/server/base/db-schema';
import { emailKey, mailboxKey } from '@/server/base/email-key';

/**
 * The person of an organisation a link is for: the one row per address, or a new row for a link the
 * operator prints for the office (no address). A person whose link was revoked (a leaver) stays revoked
 * when opening a link e-mailed from the site (null: it opens nothing); only the operator's own `--link`
 * gives them a new one. Two openings at once find or make the same row.
 */
export async function personFor(
  db: Client,
  organisationId: number,
  address: string | null,
  now: number,
  asker: 'operator' | 'self-service',
): Promise<number | null> {
  const key = address === null ? null : emailKey(address);
  if (key === null) {
    const [office] = await orm(db)
      .insert(organisationPeople)
      .values({ organisationId, email: null, emailKey: null, createdMs: now })
      .returning({ id: organisationPeople.id });
    return office!.id;
  }
  await orm(db)
    .insert(organisationPeople)
    .values({ organisationId, email: address!.trim(), emailKey: key, createdMs: now })
    .onConflictDoNothing();
  const [person] = await orm(db)
    .select({ id: organisationPeople.id, revokedMs: organisationPeople.revokedMs })
    .from(organisationPeople)
    .where(and(eq(organisationPeople.organisationId, organisationId), eq(organisationPeople.emailKey, key)));
  if (!person) return null;
  if (person.revokedMs === null) return person.id;
  if (asker === 'self-service') return null;
  await orm(db)
    .update(organisationPeople)
    .set({ revokedMs: null, lastUsedMs: null, createdMs: now })
    .where(eq(organisationPeople.id, person.id));
  return person.id;
}

/** Whether a revoked person of the organisation has this address's mailbox under any spelling (a +tag, a trailing dot). */
export async function mailboxRevoked(db: Client, organisationId: number, address: string): Promise<boolean> {
  const mailbox = mailboxKey(address);
  const revoked = await orm(db)
    .select({ email: organisationPeople.email })
    .from(organisationPeople)
    .where(and(eq(organisationPeople.organisationId, organisationId), isNotNull(organisationPeople.revokedMs)));
  return revoked.some((person) => person.email !== null && mailboxKey(person.email) === mailbox);
}
