import { describe, expect, it } from 'vitest';
import { plainText } from '@/lib/plain-text';

describe('plainText', () => {
  const sample = 'one\r\ntwo\rthree\u2028four\u0085five\tsix\u0000seven\u009f';
  it('keeps newlines as one kind and removes every other control character', () => {
    expect(plainText(sample, 'keep')).toBe('one\ntwo\nthree\nfour\nfivesixseven');
  });
  it('turns each run of newlines into a space, or drops them', () => {
    expect(plainText('a\n\n\r\nb', 'space')).toBe('a b');
    expect(plainText(sample, 'drop')).toBe('onetwothreefourfivesixseven');
  });
  it('replaces the other control characters when asked', () => {
    expect(plainText('a\tb\u0000c', 'space', ' ')).toBe('a b c');
  });
});
