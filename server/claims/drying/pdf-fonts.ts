import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import type { Font, Glyph } from '@pdf-lib/fontkit';
import { printableText } from '@/server/claims/drying/printable-text';

/**
 * The documents' fonts: DejaVu Sans and its bold, TrueType files of the `dejavu-fonts-ttf` package,
 * read from node_modules once per process (the server runs in the project's folder, as `public/` is
 * read from it) and embedded into each PDF as subsets (decision 0048). Nothing is fetched.
 */

export type FontName = 'regular' | 'bold';

const FILES: Record<FontName, string> = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' };

export type LoadedFont = {
  bytes: Uint8Array;
  font: Font;
  /** The same font as pdf-lib embeds it: see `documentFontkit`. */
  forPdf: Font;
  /** Advance width of a code point in thousandths of the font size (the em), cached. */
  advance: (codePoint: number) => number;
};

const loaded = new Map<FontName, LoadedFont>();

export function fontFile(name: FontName): string {
  return path.join(process.cwd(), 'node_modules', 'dejavu-fonts-ttf', 'ttf', FILES[name]);
}

export function loadFont(name: FontName): LoadedFont {
  const cached = loaded.get(name);
  if (cached) return cached;
  const bytes = new Uint8Array(readFileSync(fontFile(name)));
  const font = fontkit.create(bytes);
  const widths = new Map<number, number>();
  const scale = 1000 / font.unitsPerEm;
  const advance = (codePoint: number) => {
    let width = widths.get(codePoint);
    if (width === undefined) {
      width = font.glyphForCodePoint(codePoint).advanceWidth * scale;
      widths.set(codePoint, width);
    }
    return width;
  };
  const glyphOf = new Map<number, Glyph>();
  const glyph = (char: string) => {
    const codePoint = char.codePointAt(0)!;
    let found = glyphOf.get(codePoint);
    if (found === undefined) {
      found = font.glyphForCodePoint(codePoint);
      glyphOf.set(codePoint, found);
    }
    return found;
  };
  const forPdf: Font = Object.create(font, { layout: { value: (text: string) => ({ glyphs: Array.from(text, glyph), positions: [] }) } });
  const entry = { bytes, font, forPdf, advance };
  loaded.set(name, entry);
  return entry;
}

/**
 * What pdf-lib is given as fontkit: the fonts parsed once per process, each letter its glyph by the
 * font's character map. fontkit's own layout runs OpenType shaping over DejaVu's large tables, about
 * half a millisecond a string (seconds for a long record), for nothing these documents use: pdf-lib
 * keeps only the glyphs (never their positions), the text is composed (NFC) and ligatures are off, so
 * for these scripts the character map gives the same glyphs.
 */
export const documentFontkit = {
  create(bytes: Uint8Array): Font {
    for (const entry of loaded.values()) if (entry.bytes === bytes) return entry.forPdf;
    return fontkit.create(bytes);
  },
};

const glyphs = new Map<number, boolean>();

/** Whether both of the documents' fonts have a glyph for the code point (cached: a handful of letters repeat). */
function printable(codePoint: number): boolean {
  let has = glyphs.get(codePoint);
  if (has === undefined) {
    has = loadFont('regular').font.hasGlyphForCodePoint(codePoint) && loadFont('bold').font.hasGlyphForCodePoint(codePoint);
    glyphs.set(codePoint, has);
  }
  return has;
}

/** `text` as the documents' fonts print it (printableText with their glyphs); plain ASCII as it is, as both fonts have all of it. */
export const documentText = (text: string) => (/^(?:[\x21-\x7E]| (?! ))*$/.test(text) ? text : printableText(text, printable));
