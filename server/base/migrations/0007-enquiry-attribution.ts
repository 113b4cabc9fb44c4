import type { Migration } from '@/server/base/migrations';

/**
 * Where each enquiry came from (lib/visit-attribution.ts): the page the form was sent from, the page the
 * visit landed on, the referring site's origin and the campaign tags. NULL where not known, as for every
 * enquiry stored before.
 */
export const enquiryAttributionMigration: Migration = {
  id: '0007-enquiry-attribution',
  statements: [
    `ALTER TABLE enquiries ADD COLUMN sent_from TEXT`,
    `ALTER TABLE enquiries ADD COLUMN landing_page TEXT`,
    `ALTER TABLE enquiries ADD COLUMN referrer TEXT`,
    `ALTER TABLE enquiries ADD COLUMN utm_source TEXT`,
    `ALTER TABLE enquiries ADD COLUMN utm_medium TEXT`,
    `ALTER TABLE enquiries ADD COLUMN utm_campaign TEXT`,
  ],
};
