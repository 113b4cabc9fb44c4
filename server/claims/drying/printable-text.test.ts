import { describe, expect, it } from 'vitest';
import { MISSING_GLYPH, printableText } from '@/server/claims/drying/printable-text';

// A font with Latin up to Latin Extended-B, the combining grave and acute, the white square and the
// heart, and nothing else: the glyph test the documents' font answers for real.
const latinFont = (codePoint: number) =>
  (codePoint >= 0x20 && codePoint < 0x250) || codePoint === 0x300 || codePoint === 0x301 || codePoint === 0x25a1 || codePoint === 0x2764;
const print = (text: string) => printableText(text, latinFont);

describe('printableText', () => {
  it('keeps every letter the font has, as typed', () => {
    for (const text of ['Seòmar-cadail', 'Łazienka', 'Wójcik', 'Dŵr', 'Ebac café édition', 'Ærø Øster', 'Škoda'])
      expect(print(text)).toBe(text);
  });

  it('prints each character the font lacks as one white square, whatever it is made of', () => {
    expect(MISSING_GLYPH).toBe('□');
    expect(print('Bathroom 🛁')).toBe('Bathroom □');
    // A family joined with zero-width joiners, a flag's two letters, a thumb with its skin tone: one each.
    expect(print('👨‍👩‍👧 room')).toBe('□ room');
    expect(print('🇬🇧 flag')).toBe('□ flag');
    expect(print('👍🏽 ok')).toBe('□ ok');
    expect(print('Ванная')).toBe('□□□□□□');
    expect(print('浴室 2')).toBe('□□ 2');
    // A lone half of a surrogate pair (a string cut short somewhere) is a character the font lacks.
    expect(print('a\uD83Db')).toBe('a□b');
  });

  it('composes accents typed separately, keeps those the font has and drops those it lacks', () => {
    expect(print('Cafe\u0301')).toBe('Café');
    expect(print('Cafe\u0301')).toHaveLength(4);
    // q with a grave has no single character: the font's combining grave prints on it.
    expect(print('q\u0300')).toBe('q\u0300');
    // A tilde the font lacks leaves the q bare rather than a square beside it.
    expect(print('q\u0303')).toBe('q');
  });

  it('prints invisible characters as nothing and white space as single spaces', () => {
    expect(print('Kitchen\u200Bwall')).toBe('Kitchenwall');
    expect(print('❤️ Love')).toBe('❤ Love');
    expect(print('Hall\n\tway\u00A0 one')).toBe('Hall way one');
    expect(print('Bad\u0007bell')).toBe('Badbell');
  });
});
