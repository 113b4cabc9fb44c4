import type { Migration } from '@/server/base/migrations';

/**
 * Who confirmed a claim dry: the name the staff page asks for when it saves `dried`, kept with that
 * change of stage and printed on the certificate of dryness (server/claims/drying/documents.ts). Null
 * for every other change, and for a `dried` the company's CRM sent.
 */
export const driedConfirmedByMigration: Migration = {
  id: '0023-dried-confirmed-by',
  statements: [`ALTER TABLE claim_stage_changes ADD COLUMN confirmed_by TEXT`],
};
