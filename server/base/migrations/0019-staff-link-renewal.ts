import type { Migration } from '@/server/base/migrations';

/**
 * A claim's staff link expires 30 days after the claim last moved (server/claims/claim-links.ts). The
 * operator renews it on request (`npm run claims -- --staff-link`): the moment is kept here, and the
 * link lives 30 days from the later of the two.
 */
export const staffLinkRenewalMigration: Migration = {
  id: '0019-staff-link-renewal',
  statements: [`ALTER TABLE enquiries ADD COLUMN staff_link_renewed_ms INTEGER`],
};
