import { describe, expect, it } from 'vitest';
import { isEnquiryKey, newEnquiryKey } from './enquiry-key';

describe('enquiry keys', () => {
  it('are 22 base64url characters, new each time, and recognised as keys', () => {
    const keys = Array.from({ length: 200 }, newEnquiryKey);
    expect(new Set(keys).size).toBe(200);
    for (const key of keys) expect(isEnquiryKey(key)).toBe(true);
  });

  it('refuses anything else: other lengths, other characters, other types', () => {
    for (const value of ['', 'short', 'a'.repeat(21), 'a'.repeat(23), `${'a'.repeat(21)}=`, `${'a'.repeat(21)}/`, 42, null, undefined]) {
      expect(isEnquiryKey(value)).toBe(false);
    }
  });
});
