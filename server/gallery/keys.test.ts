import { describe, expect, it } from 'vitest';
import { isValidMediaKey, slugify } from './keys';

describe('isValidMediaKey', () => {
  it('accepts plain keys with folders', () => {
    for (const key of ['a.jpg', 'samples/roof-sample.webp', 'uploads/2026/x_1.mp4']) expect(isValidMediaKey(key)).toBe(true);
  });
  it('refuses traversal, absolute paths, hidden files and odd characters', () => {
    for (const key of [
      '',
      '../x.jpg',
      'a/../../x.jpg',
      '/etc/passwd',
      'a//b.jpg',
      '.env',
      'a/.git/config',
      'a\\b.jpg',
      'a b.jpg',
      'a/b/',
      '%2e%2e/x',
      'x'.repeat(513),
    ]) {
      expect(isValidMediaKey(key), key).toBe(false);
    }
  });
});

describe('slugify', () => {
  it('makes a safe key segment', () => {
    expect(slugify('Kitchen Ceiling (Après) #2')).toBe('kitchen-ceiling-apres-2');
    expect(slugify('...')).toBe('media');
  });
});
