import type { Migration } from '@/server/base/migrations';

/**
 * Enquiries gain the three urgency responds with the flag they decide (the outbox sends an urgent
 * enquiry's notification first), and the details of an insurer's or loss adjuster's instruction.
 * Plain nullable columns: older rows have none of them and are not urgent.
 */
export const urgencyAndInstructionsMigration: Migration = {
  id: '0011-urgency-and-instructions',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN worsening TEXT`,
    `ALTER TABLE enquiries ADD COLUMN habitable TEXT`,
    `ALTER TABLE enquiries ADD COLUMN vulnerable TEXT`,
    `ALTER TABLE enquiries ADD COLUMN urgent INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE enquiries ADD COLUMN policyholder_name TEXT`,
    `ALTER TABLE enquiries ADD COLUMN policyholder_phone TEXT`,
    `ALTER TABLE enquiries ADD COLUMN property_address TEXT`,
    `ALTER TABLE enquiries ADD COLUMN vat_registered TEXT`,
    `ALTER TABLE enquiries ADD COLUMN excess TEXT`,
    `ALTER TABLE enquiries ADD COLUMN desktop_assessment TEXT`,
  ],
};
