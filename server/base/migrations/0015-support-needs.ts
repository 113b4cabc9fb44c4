import type { Migration } from '@/server/base/migrations';

/**
 * Enquiries gain what would help us work with the person: whether they would rather not be phoned
 * (`yes`, or NULL) and, in their words, anything else (access needs, someone to speak to for them, times
 * not to call). Plain nullable columns, kept and deleted with the rest of the row; older rows have none.
 */
export const supportNeedsMigration: Migration = {
  id: '0015-support-needs',
  statements: [`ALTER TABLE enquiries ADD COLUMN no_phone_calls TEXT`, `ALTER TABLE enquiries ADD COLUMN support_needs TEXT`],
};
