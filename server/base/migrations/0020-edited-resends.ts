import type { Migration } from '@/server/base/migrations';

/**
 * A try with a stored enquiry key but other words is a new enquiry (decision 0035, changed 2026-11-26):
 * enquiries gain the hash of the fields a person typed (without the client's address, so a retry from
 * another network still matches) and the enquiry an edited re-send replaces, which its notification
 * names. Rows stored before have neither: a try with their key is still answered as that enquiry.
 * No foreign key: the replaced enquiry may be erased or expire first, and the note then says nothing.
 */
export const editedResendsMigration: Migration = {
  id: '0020-edited-resends',
  statements: [`ALTER TABLE enquiries ADD COLUMN fields_hash TEXT`, `ALTER TABLE enquiries ADD COLUMN replaces_id INTEGER`],
};
