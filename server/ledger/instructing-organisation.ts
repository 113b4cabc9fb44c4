import 'server-only';
import type { Client } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { orm } from '@/server/base/db';
import { organisationDomains } from '@/server/base/db-schema';

// Which instructing organisation an instruction belongs to, by its sender's domain: read as the
// enquiry is stored (enquiry-store.ts), so it lives with the ledger; the organisations themselves are
// registered and shown by server/portfolio/.

/** The domain of an address as organisations are registered by: after its last @, lower-case, no trailing dot. */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 1) return null;
  const domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return domain.length > 0 ? domain : null;
}

/** The organisation registered for an address's domain, or null. */
export async function organisationOfAddress(db: Client, address: string): Promise<number | null> {
  const domain = domainOfAddress(address);
  if (!domain) return null;
  const [row] = await orm(db)
    .select({ id: organisationDomains.organisationId })
    .from(organisationDomains)
    .where(eq(organisationDomains.domain, domain));
  return row?.id ?? null;
}
