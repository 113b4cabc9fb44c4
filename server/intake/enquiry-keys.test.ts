import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@libsql/client';
import { newEnquiryKey } from '@/lib/enquiry-key';
import { KEPT_CLAIM_MAX_AGE_MS } from '@/lib/offline/protocol';
import { replacedEnquiry, storeEnquiry, type NewEnquiry } from '@/server/ledger/enquiry-store';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { newEnquiry } from '@/tests/support/stored-enquiry';

// One key, one content: what the store makes of tries that share an enquiry key (decision 0035).

let db: Client;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

const enquiry = (extra: Partial<NewEnquiry> = {}) => newEnquiry({ clientAddress: '192.0.2.7', ...extra });
const at = Date.parse('2026-11-26T10:00:00Z');

describe('tries with one enquiry key', () => {
  it('the same words are that enquiry from any address; other words are a new one that replaces the latest', async () => {
    const key = newEnquiryKey();
    const first = await storeEnquiry(db, enquiry({ enquiryKey: key }), at);
    const edited = await storeEnquiry(
      db,
      enquiry({ enquiryKey: key, message: 'Now the bedroom ceiling as well.', clientAddress: '198.51.100.9' }),
      at + 60_000,
    );
    expect(first).toMatchObject({ duplicate: false });
    expect(edited).toMatchObject({ duplicate: false });
    expect(edited.reference).not.toBe(first.reference);
    expect(await replacedEnquiry(db, edited.id)).toEqual({ reference: first.reference, receivedAt: '2026-11-26T10:00:00.000Z' });
    expect(await replacedEnquiry(db, first.id)).toBeNull();

    // Each version again, from wherever: its own enquiry, nothing new.
    expect(await storeEnquiry(db, enquiry({ enquiryKey: key, clientAddress: '203.0.113.5' }), at + 120_000)).toEqual({
      ...first,
      duplicate: true,
    });
    expect(await storeEnquiry(db, enquiry({ enquiryKey: key, message: 'Now the bedroom ceiling as well.' }), at + 180_000)).toEqual({
      ...edited,
      duplicate: true,
    });
    // Edited once more: it replaces the latest version.
    const third = await storeEnquiry(db, enquiry({ enquiryKey: key, name: 'Joanna Bloggs' }), at + 240_000);
    expect((await replacedEnquiry(db, third.id))?.reference).toBe(edited.reference);
    expect(Number((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).rows[0]?.n)).toBe(3);
  });

  it('a kept claim sent again as late as a phone keeps one (its answer lost) is that enquiry, not a second', async () => {
    const key = newEnquiryKey();
    const first = await storeEnquiry(db, enquiry({ enquiryKey: key }), at);
    const late = at + KEPT_CLAIM_MAX_AGE_MS - 60_000;
    expect(await storeEnquiry(db, enquiry({ enquiryKey: key, clientAddress: '198.51.100.9' }), late)).toEqual({
      ...first,
      duplicate: true,
    });
    // Past what any phone keeps, a key is no longer remembered.
    expect(await storeEnquiry(db, enquiry({ enquiryKey: key }), at + KEPT_CLAIM_MAX_AGE_MS + 25 * 60 * 60_000)).toMatchObject({
      duplicate: false,
    });
  });

  it('an earlier try that was not accepted (never notified) is not named', async () => {
    const key = newEnquiryKey();
    await storeEnquiry(db, enquiry({ enquiryKey: key, disposition: 'spam', verification: 'honeypot' }), at);
    const edited = await storeEnquiry(db, enquiry({ enquiryKey: key, message: 'Now the bedroom ceiling as well.' }), at + 1000);
    expect(edited.duplicate).toBe(false);
    expect(await replacedEnquiry(db, edited.id)).toBeNull();
  });

  it('a row stored before its words were hashed is matched by its key alone, as it was', async () => {
    const key = newEnquiryKey();
    const first = await storeEnquiry(db, enquiry({ enquiryKey: key }), at);
    await db.execute('UPDATE enquiries SET fields_hash = NULL');
    expect(await storeEnquiry(db, enquiry({ enquiryKey: key, message: 'Other words after all.' }), at + 1000)).toEqual({
      ...first,
      duplicate: true,
    });
  });
});
