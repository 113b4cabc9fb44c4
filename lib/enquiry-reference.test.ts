import { describe, expect, it } from 'vitest';
import { enquiryIdOf, enquiryReference, enquiryReferenceSql, isEnquiryReference } from '@/lib/enquiry-reference';

/** 31 characters that read out unambiguously (no 0/O or 1/I/L); six of them give 31⁶ references. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CAPACITY = 31 ** 6;

describe('enquiry references', () => {
  it('read out easily: HC- and two groups of three, with no 0/O or 1/I/L', () => {
    for (const id of [0, 1, 2, 42, 99_999, CAPACITY - 1]) {
      const reference = enquiryReference(id);
      expect(reference).toMatch(/^HC-[^01OIL]{3}-[^01OIL]{3}$/);
      expect(isEnquiryReference(reference)).toBe(true);
    }
  });

  it('unique over a million draws (the ids 1 to 1 000 000), each from the alphabet only', () => {
    const seen = new Set<string>();
    const allowed = new Set(ALPHABET);
    for (let id = 1; id <= 1_000_000; id += 1) {
      const reference = enquiryReference(id);
      for (const character of reference.slice(3).replace('-', ''))
        if (!allowed.has(character)) throw new Error(`${reference}: ${character}`);
      seen.add(reference);
    }
    expect(seen.size).toBe(1_000_000);
  });

  it('gives back the id a reference stands for, for every id it was tried on', () => {
    for (let id = 0; id <= 200_000; id += 1) if (enquiryIdOf(enquiryReference(id)) !== id) throw new Error(`id ${id}`);
    for (const id of [CAPACITY - 1, CAPACITY - 2, 123_456_789]) expect(enquiryIdOf(enquiryReference(id))).toBe(id);
    expect(() => enquiryIdOf('HC-ABC-DE0')).toThrow(RangeError);
  });

  it('consecutive enquiries do not get neighbouring references', () => {
    const [a, b] = [enquiryReference(1), enquiryReference(2)];
    expect(a.slice(0, 6)).not.toBe(b.slice(0, 6));
  });

  it('refuses ids it cannot represent, and malformed references', () => {
    for (const id of [-1, 1.5, CAPACITY, Number.NaN]) expect(() => enquiryReference(id)).toThrow(RangeError);
    for (const bad of ['HC-ABC-DE0', 'HC-ABCDEF', 'hc-abc-def', 'HC-ABC-DEF ', 'HC-OIL-123', 42, null])
      expect(isEnquiryReference(bad)).toBe(false);
  });
});

describe('the SQL form of the reference', () => {
  it('gives the same reference as enquiryReference in SQLite, for the first and for large ids', async () => {
    const { createClient } = await import('@libsql/client');
    const db = createClient({ url: ':memory:' });
    const ids = [0, 1, 2, 3, 31, 961, 123_456, 887_503_680, ...Array.from({ length: 2000 }, (_, index) => index * 443_749 + 7)];
    const rows = (
      await db.execute(`SELECT value AS id, ${enquiryReferenceSql('value')} AS reference FROM json_each(?)`, [JSON.stringify(ids)])
    ).rows;
    expect(rows.map((row) => row.reference)).toEqual(ids.map((id) => enquiryReference(id)));
    db.close();
  });
});
