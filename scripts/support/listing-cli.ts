// What `npm run logs` and `npm run enquiries` share: their options and their plain-text tables.
import { parseArgs } from 'node:util';
import { visibleText } from '@/lib/plain-text';

function fail(message: string, usage: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/**
 * Reads `--limit N` (1 to 1000, default 20), `--json`, `--help` and the command's own boolean flags.
 * `--help` prints the usage and exits 0; a bad argument prints what is wrong and the usage and exits 2.
 */
export function parseListingOptions<Flag extends string, Text extends string = never>(
  usage: string,
  flags: readonly Flag[] = [],
  texts: readonly Text[] = [],
): { limit: number; json: boolean; flags: Record<Flag, boolean>; texts: Partial<Record<Text, string>> } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        limit: { type: 'string', short: 'n', default: '20' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean', default: false } as const])),
        ...Object.fromEntries(texts.map((text) => [text, { type: 'string' } as const])),
      },
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), usage);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    fail(`--limit must be a whole number from 1 to 1000, not "${values.limit}".`, usage);
  return {
    limit,
    json: values.json === true,
    flags: Object.fromEntries(flags.map((flag) => [flag, values[flag] === true])) as Record<Flag, boolean>,
    texts: Object.fromEntries(
      texts.filter((text) => typeof values[text] === 'string').map((text) => [text, String(values[text])]),
    ) as Partial<Record<Text, string>>,
  };
}

// What a visitor's text must never do on the operator's terminal: CSI sequences (clear the screen,
// move the cursor), OSC sequences (set the title, write the clipboard with OSC 52), other escapes and
// C0/C1 control characters; and, through visibleText (lib/plain-text.ts, the same filter the e-mails
// use), bidirectional controls that reorder what is shown and zero-width characters that hide in it.
const CSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]/g;
const OSC_SEQUENCE = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const escaped = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The text with every escape sequence, control character and invisible reordering or hiding character removed (newlines and tabs kept). */
export function printable(text: string): string {
  return visibleText(text.replace(OSC_SEQUENCE, '').replace(CSI_SEQUENCE, '').replace(CONTROL, ''));
}

/** JSON for the terminal: what JSON.stringify leaves raw (C1 controls, bidi controls, zero-width characters) escaped too. */
export function terminalJson(value: unknown): string {
  return visibleText(JSON.stringify(value, null, 2).replace(CONTROL, escaped), escaped);
}

/** The text on one line (runs of white space collapsed), printable, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = printable(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The header and rows as lines of columns padded to their widest cell (cut at `maxCell`); the last column runs free. */
export function tableLines(header: string[], rows: string[][], maxCell = Number.POSITIVE_INFINITY): string[] {
  const last = header.length - 1;
  const cell = (text: string, column: number) => (column === last ? text : oneLine(text, maxCell));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => cell(row[column]!, column).length)));
  const format = (row: string[]) =>
    row.map((text, column) => (column === last ? text : cell(text, column).padEnd(widths[column]!))).join('  ');
  return [header, ...rows].map(format);
}
