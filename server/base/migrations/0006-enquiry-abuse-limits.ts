import type { Migration } from '@/server/base/migrations';
import { emailKey } from '@/server/base/email-key';

/**
 * Each enquiry's address in the one compared form (server/base/email-key.ts), so an erasure finds
 * `Jörg@` and `jörg@` alike and acknowledgements can be capped per recipient; and how many photos came
 * with it but were not kept (a spam trap's or a suspect's, or the photo storage was full), and why.
 */
export const enquiryAbuseLimitsMigration: Migration = {
  id: '0006-enquiry-abuse-limits',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN email_key TEXT`,
    `CREATE INDEX enquiries_email_key ON enquiries (email_key, received_ms)`,
    `ALTER TABLE enquiries ADD COLUMN photos_dropped INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE enquiries ADD COLUMN photos_dropped_reason TEXT`,
  ],
  // SQLite cannot fold non-ASCII letters: the stored rows get their key from the same function as new ones.
  async after(tx) {
    const rows = await tx.execute('SELECT id, email FROM enquiries WHERE email_key IS NULL');
    for (const row of rows.rows)
      await tx.execute({ sql: 'UPDATE enquiries SET email_key = ? WHERE id = ?', args: [emailKey(String(row.email)), Number(row.id)] });
  },
};
