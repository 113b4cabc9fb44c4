import { describe, expect, it } from 'vitest';
import { normaliseContactText } from '@/lib/contact-fields';
import { plainText, visibleText } from '@/lib/plain-text';

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

// Every bidirectional formatting character Unicode has: embeddings, overrides, pops, isolates and the
// implicit marks (LRM, RLM, ALM).
const BIDI_CONTROLS = [
  ['LRE', '\u202A'],
  ['RLE', '\u202B'],
  ['PDF', '\u202C'],
  ['LRO', '\u202D'],
  ['RLO', '\u202E'],
  ['LRI', '\u2066'],
  ['RLI', '\u2067'],
  ['FSI', '\u2068'],
  ['PDI', '\u2069'],
  ['LRM', '\u200E'],
  ['RLM', '\u200F'],
  ['ALM', '\u061C'],
] as const;

const ZERO_WIDTH = [
  ['zero-width space', '\u200B'],
  ['word joiner', '\u2060'],
  ['invisible times', '\u2062'],
  ['byte-order mark', '\uFEFF'],
] as const;

// Names and subjects as people type them, in several scripts: none of them loses a character.
const TYPED_AS_IS = [
  'محمد',
  'שלום',
  'Łukasz Żółć',
  'Seònaid NicAoidh',
  'Dáithí Ó Súilleabháin',
  'محمد علی (ساختمان ۱۲)',
  'דירה 4, רחוב הרצל',
  'می‌خواهم', // Persian: the zero-width non-joiner between two letters is spelling
  'क्‍ष', // Devanagari: a joiner after the virama
  '👩‍👩‍👧‍👦 🏳️‍🌈 👨🏽‍💻 ❤️‍🔥 🏃‍♂️',
  'Flat 2/1, 14 Byres Road',
];

describe('visibleText', () => {
  it.each(BIDI_CONTROLS)('removes %s wherever it stands', (_name, control) => {
    expect(visibleText(`Roof ${control}gpj.exe${control}`)).toBe('Roof gpj.exe');
    expect(visibleText(`${control}محمد${control}`)).toBe('محمد');
    expect(plainText(`Roof ${control}gpj.exe`, 'space')).toBe('Roof gpj.exe');
    expect(normaliseContactText(` ${control}Roof ${control}gpj.exe\u202C `, false)).toBe('Roof gpj.exe');
  });

  it.each(ZERO_WIDTH)('removes the %s', (_name, character) => {
    expect(visibleText(`in${character}voice`)).toBe('invoice');
    expect(normaliseContactText(`${character}Roof leak${character}`, true)).toBe('Roof leak');
  });

  it.each(TYPED_AS_IS)('keeps %s as typed', (text) => {
    expect(visibleText(text)).toBe(text);
    expect(normaliseContactText(text, false)).toBe(text.normalize('NFC'));
  });

  it('keeps a joiner or non-joiner only between letters or inside an emoji sequence', () => {
    expect(visibleText('\u200DRoof\u200C')).toBe('Roof');
    expect(visibleText('Roof \u200D\u200Cleak')).toBe('Roof leak');
    expect(visibleText('a\u200D\u200Db')).toBe('ab');
    expect(visibleText('x\u200C.')).toBe('x.');
    expect(normaliseContactText('\u200D\u200D\u200D', false)).toBe('');
  });

  it('leaves nothing of a subject made of direction characters alone', () => {
    expect(normaliseContactText(BIDI_CONTROLS.map(([, control]) => control).join(''), false)).toBe('');
  });

  it('can replace each character instead of removing it', () => {
    expect(visibleText('a\u202Eb\u200Bc', (character) => `<${character.charCodeAt(0).toString(16)}>`)).toBe('a<202e>b<200b>c');
  });
});
