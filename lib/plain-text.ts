// One policy for text that came from a visitor and goes somewhere control characters do harm (a stored
// enquiry, a mail header, a file name shown back): Windows and old-Mac line ends and the Unicode line
// separators (which some mail clients break lines on) become one newline; every other C0 and C1
// control character (tab included) goes.
const LINE_BREAKS = /\r\n|[\r\u2028\u2029\u0085]/g;
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;

/** `value` with its newlines kept, turned into a space or dropped, and other control characters replaced (by default removed). */
export function plainText(value: string, newlines: 'keep' | 'space' | 'drop', otherControls = ''): string {
  const unified = value.replace(LINE_BREAKS, '\n');
  const lines = newlines === 'keep' ? unified : unified.replace(/\n+/g, newlines === 'space' ? ' ' : '');
  return lines.replace(CONTROL_EXCEPT_NEWLINE, otherControls);
}
