/**
 * Text as a font can print it: what was typed, composed (NFC), each character the font has printed as
 * it is and each it lacks as one visible mark, so nothing fails a document and nothing vanishes
 * unseen. Pure: the font comes in as a test of whether it has a glyph for a code point.
 */

/** What a character the font lacks prints as: a white square, which the documents' font has. */
export const MISSING_GLYPH = '\u25A1';

/** Characters that print as nothing by design: joiners, variation selectors, bidi marks, soft hyphens, controls. */
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Cc}]$/u;
/** Combining marks, which belong to the letter before them. */
const MARK = /^\p{M}$/u;
/** What needs the slow path: marks, invisibles and characters beyond the first 65,536 (emoji). */
const NOT_SIMPLE = /[\p{M}\p{Default_Ignorable_Code_Point}\p{Cc}]|[^\0-\uFFFF]/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` with its white space (line breaks, tabs, no-break spaces) one space each, composed, and each
 * user-perceived character (a letter with its accents, an emoji with its skin tone or its joined
 * people, a flag) the font cannot show as one `replacement`. A combining accent the font lacks on a
 * letter it has is dropped and the letter prints bare; joiners and variation selectors print as nothing.
 */
export function printableText(text: string, hasGlyph: (codePoint: number) => boolean, replacement = MISSING_GLYPH): string {
  const spaced = text.replace(/\s+/gu, ' ').normalize('NFC');
  const has = (char: string) => hasGlyph(char.codePointAt(0)!);
  let out = '';
  if (!NOT_SIMPLE.test(spaced)) {
    for (const char of spaced) out += has(char) ? char : replacement;
    return out;
  }
  for (const { segment } of segmenter.segment(spaced)) {
    const chars = [...segment].filter((char) => !INVISIBLE.test(char));
    const [base, ...rest] = chars;
    if (base === undefined) continue;
    if (MARK.test(base)) {
      // Accents with no letter before them (the start of the text): shown where the font has them.
      out += chars.filter(has).join('');
      continue;
    }
    const others = rest.filter((char) => !MARK.test(char));
    // A character the font lacks, or more than accents on one it has (an emoji's skin tone, the
    // second of a flag's letters, people joined into a family), prints as one mark.
    if (!has(base) || !others.every(has)) {
      out += replacement;
      continue;
    }
    out += base + rest.filter((char) => !MARK.test(char) || has(char)).join('');
  }
  return out;
}
