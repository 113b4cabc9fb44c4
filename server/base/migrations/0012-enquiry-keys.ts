import type { Migration } from '@/server/base/migrations';

/**
 * Enquiries gain the key the form sends with every try of one enquiry (lib/enquiry-key.ts): a retry
 * with a key stored in the last 24 hours is answered with that enquiry, whatever address it comes from.
 * Not unique: a key is only compared within its window. Older rows have none.
 */
export const enquiryKeysMigration: Migration = {
  id: '0012-enquiry-keys',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN enquiry_key TEXT`,
    `CREATE INDEX enquiries_enquiry_key ON enquiries (enquiry_key, received_ms)`,
  ],
};
