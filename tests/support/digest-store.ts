// Enquiries stored the way POST /api/contact stores them, at a chosen time, for the digest's tests.
import type { Client } from '@libsql/client';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

let serial = 0;

/** Stores one enquiry received at `at` (ms), each from its own sender; returns its id and reference. */
export async function submitEnquiryAt(
  db: Client,
  at: number,
  body: Record<string, string> = {},
): Promise<{ id: number; reference: string }> {
  serial += 1;
  const sender = {
    email: `sender${serial}@example.com`,
    subject: `Enquiry number ${serial}`,
    message: 'Water is coming in through the ceiling.',
  };
  return submitEnquiry(db, { ...sender, ...body }, { at });
}

/** Backdates when the digest started in this database (its migration's time), as on a site running for a while. */
export async function digestStartedAt(db: Client, iso: string): Promise<void> {
  await db.execute({ sql: "UPDATE schema_migrations SET applied_at = ? WHERE id = '0008-digests'", args: [iso] });
}
