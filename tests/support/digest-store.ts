// Enquiries stored the way POST /api/contact stores them, at a chosen time, for the digest's tests.
import type { Client } from '@libsql/client';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createContactHandler } from '@/server/intake/contact-handler';
import { contactRequest } from '@/tests/support/enquiry-peers';

let serial = 0;

/** Stores one enquiry received at `at` (ms); returns its id and reference. */
export async function submitEnquiryAt(
  db: Client,
  at: number,
  body: Record<string, unknown> = {},
): Promise<{ id: number; reference: string }> {
  serial += 1;
  const handle = createContactHandler({ config: loadEnquiryConfig({}), db: async () => db, wake: () => undefined, now: () => at });
  const response = await handle(
    contactRequest({
      name: 'Jo Bloggs',
      email: `sender${serial}@example.com`,
      phone: '',
      subject: `Enquiry number ${serial}`,
      message: 'Water is coming in through the ceiling.',
      ...body,
    }),
  );
  if (response.status !== 201) throw new Error(`not stored: ${response.status} ${JSON.stringify(response.body)}`);
  const row = await db.execute({ sql: 'SELECT id, reference FROM enquiries WHERE received_ms = ? ORDER BY id DESC LIMIT 1', args: [at] });
  return { id: Number(row.rows[0]!.id), reference: String(row.rows[0]!.reference) };
}

/** Backdates when the digest started in this database (its migration's time), as on a site running for a while. */
export async function digestStartedAt(db: Client, iso: string): Promise<void> {
  await db.execute({ sql: "UPDATE schema_migrations SET applied_at = ? WHERE id = '0008-digests'", args: [iso] });
}
