import { describe, expect, it } from 'vitest';
import { documentNumber, parseDocumentNumber, parseVerificationToken } from '@/lib/document-numbers';

describe('drying document numbers', () => {
  it('names the claim, the kind and the place among its kind', () => {
    expect(documentNumber('HC-YVG-Y5S', 'statement', 2)).toBe('HC-YVG-Y5S-E2');
    expect(documentNumber('HC-YVG-Y5S', 'certificate', 1)).toBe('HC-YVG-Y5S-C1');
    expect(documentNumber('HC-YVG-Y5S', 'certificate', 9_999)).toBe('HC-YVG-Y5S-C9999');
    // No four-digit ceiling: a claim's numbering does not run out.
    expect(documentNumber('HC-YVG-Y5S', 'statement', 10_000)).toBe('HC-YVG-Y5S-E10000');
    expect(documentNumber('HC-YVG-Y5S', 'statement', 10 ** 15 - 1)).toBe('HC-YVG-Y5S-E999999999999999');
  });

  it('reads a number back into its parts, and nothing else', () => {
    expect(parseDocumentNumber('HC-YVG-Y5S-E2')).toEqual({ reference: 'HC-YVG-Y5S', kind: 'statement', sequence: 2 });
    expect(parseDocumentNumber('HC-YVG-Y5S-C12')).toEqual({ reference: 'HC-YVG-Y5S', kind: 'certificate', sequence: 12 });
    expect(parseDocumentNumber('HC-YVG-Y5S-E10000')).toEqual({ reference: 'HC-YVG-Y5S', kind: 'statement', sequence: 10_000 });
    for (const wrong of [
      'HC-YVG-Y5S-E0',
      'HC-YVG-Y5S-E01',
      'HC-YVG-Y5S-X1',
      'HC-YVG-Y5S',
      'HC-YVG-Y5S-E1000000000000000',
      'hc-yvg-y5s-e1',
      'HC-YVO-Y5S-E1',
    ])
      expect(parseDocumentNumber(wrong), wrong).toBeNull();
  });

  it('refuses what is not a reference or a sequence', () => {
    expect(() => documentNumber('HC-YVG', 'statement', 1)).toThrow(RangeError);
    expect(() => documentNumber('HC-YVG-Y5S', 'statement', 0)).toThrow(RangeError);
    expect(() => documentNumber('HC-YVG-Y5S', 'statement', 1.5)).toThrow(RangeError);
    expect(() => documentNumber('HC-YVG-Y5S', 'statement', 10 ** 15)).toThrow(RangeError);
  });

  it('reads a verification token as its number and signature', () => {
    const signature = 'a'.repeat(31) + '_';
    expect(parseVerificationToken(`HC-YVG-Y5S-E2.${signature}`)).toEqual({ number: 'HC-YVG-Y5S-E2', signature });
    expect(parseVerificationToken(`HC-YVG-Y5S-C12345.${signature}`)).toEqual({ number: 'HC-YVG-Y5S-C12345', signature });
    for (const wrong of [`HC-YVG-Y5S-E2.${signature}x`, `HC-YVG-Y5S-E2${signature}`, `12.${signature}`, '%25', ''])
      expect(parseVerificationToken(wrong), wrong).toBeNull();
  });
});
