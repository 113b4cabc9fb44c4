// One policy for text that came from a visitor and goes somewhere control characters do harm (a stored
// enquiry, a mail header or body, a file name shown back, the operator's terminal): Windows and old-Mac
// line ends and the Unicode line separators (which some mail clients break lines on) become one
// newline; every other C0 and C1 control character (tab included) goes; and so does every invisible
// character that changes how the rest is shown (visibleText).
const LINE_BREAKS = /\r\n|[\r\u2028\u2029\u0085]/g;
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;

/**
 * Invisible characters with no place in a name, a subject or a message: the bidirectional embeddings,
 * overrides and isolates and the implicit marks (LRM, RLM, ALM), which reorder what is shown
 * (`Roof \u202Egpj.exe` reads "Roof exe.jpg"); and the zero-width space, word joiner, invisible
 * operators and byte-order mark, which hide inside words. Arabic and Hebrew text needs none of them: a
 * mail client or terminal orders right-to-left letters by itself.
 */
const INVISIBLE = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * The zero-width non-joiner (U+200C) and joiner (U+200D) are kept where a script or an emoji needs
 * them: between two letters or marks (Persian `می‌خواهم`, Indic conjuncts) and inside an emoji
 * sequence (👩‍👩‍👧‍👦, 🏳️‍🌈, 👨🏽‍💻). Anywhere else (at either end, beside a space or punctuation, in a
 * run) they only hide, so they go.
 */
const STRAY_JOINER =
  /(?<![\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}])[\u200C\u200D]|[\u200C\u200D](?![\p{L}\p{M}\p{Extended_Pictographic}])/gu;

/**
 * `value` without the invisible characters that reorder or hide text (see INVISIBLE and STRAY_JOINER);
 * `replace` turns each into something else instead (the terminal's JSON escapes them). Letters of
 * every script, marks and emoji are kept as typed.
 */
export function visibleText(value: string, replace: (character: string) => string = () => ''): string {
  return value.replace(INVISIBLE, replace).replace(STRAY_JOINER, replace);
}

/** `value` with its newlines kept, turned into a space or dropped, other control characters replaced (by default removed), and visibleText. */
export function plainText(value: string, newlines: 'keep' | 'space' | 'drop', otherControls = ''): string {
  const unified = value.replace(LINE_BREAKS, '\n');
  const lines = newlines === 'keep' ? unified : unified.replace(/\n+/g, newlines === 'space' ? ' ' : '');
  return visibleText(lines.replace(CONTROL_EXCEPT_NEWLINE, otherControls));
}
