// After `next build`, before the CSP hashes: with `experimental.inlineCss` Next writes the root layout's
// stylesheet into a prerendered page three times, once in the <style> the browser paints with and twice
// more as text rows of the flight data (the layout's and the global error boundary's copies), which the
// browser downloads and parses but never uses: on hydration React adopts the <style> already in the
// document by its `data-href` and ignores the row's text. This step empties those rows in every
// prerendered page and flight file, so the rules travel once per page load. Only a stylesheet that every
// prerendered page with a stylesheet carries in a <style> is emptied: a document reached by a client-side navigation
// already holds it. Decision 0030 says why this and not the alternatives.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FLIGHT_SCRIPT = /<script>self\.__next_f\.push\((\[[\s\S]*?\])\)<\/script>/g;
const ANY_FLIGHT_PUSH = /self\.__next_f\.push\(/g;
/** Next's inline flight chunks: 0 starts the stream, 1 is text, 2 the form state; 3 (binary) is not handled. */
const FLIGHT_TEXT = 1;
const FLIGHT_CHUNK_TYPES = new Set([0, FLIGHT_TEXT, 2]);
const HTML_JSON_ESCAPES: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

class FlightChangedError extends Error {
  constructor(what: string) {
    super(`${what}: Next changed how it writes its flight data; see decision 0030.`);
  }
}

/** A flight text row of exactly this text: `<id>:T<byte length in hex>,<text>`. */
function textRowHeader(text: string): string {
  return `:T${Buffer.byteLength(text, 'utf8').toString(16)},`;
}

type Edit = { from: number; to: number; replacement: string };

/** Where the text rows of `stylesheets` sit in a whole flight stream, each to be emptied to `:T0,`. */
function stylesheetRowEdits(flight: string, stylesheets: readonly string[]): Edit[] {
  const edits: Edit[] = [];
  for (const css of stylesheets) {
    const row = `${textRowHeader(css)}${css}`;
    for (let from = flight.indexOf(row); from !== -1; from = flight.indexOf(row, from + row.length)) {
      edits.push({ from, to: from + row.length, replacement: ':T0,' });
    }
  }
  return edits.sort((a, b) => a.from - b.from).filter((edit, index, sorted) => index === 0 || edit.from >= sorted[index - 1]!.to);
}

/** Empties every flight text row whose text is one of `stylesheets`; returns the flight unchanged otherwise. */
export function emptyStylesheetRows(flight: string, stylesheets: readonly string[]): string {
  return applyEdits([flight], stylesheetRowEdits(flight, stylesheets))[0]!;
}

/**
 * `edits` (positions in the stream the `pieces` make when joined) applied piece by piece: each piece
 * keeps what it held outside the edits, a replacement goes where its edit starts, so a row cut across
 * pieces anywhere (in its header, in its text) is emptied as a whole and the pieces keep their framing.
 */
function applyEdits(pieces: readonly string[], edits: readonly Edit[]): string[] {
  const result: string[] = [];
  let pieceStart = 0;
  for (const piece of pieces) {
    const pieceEnd = pieceStart + piece.length;
    let out = '';
    let at = pieceStart;
    for (const edit of edits) {
      if (edit.to <= at || edit.from >= pieceEnd) continue;
      if (edit.from > at) out += piece.slice(at - pieceStart, edit.from - pieceStart);
      if (edit.from >= pieceStart) out += edit.replacement;
      at = Math.min(edit.to, pieceEnd);
    }
    out += piece.slice(at - pieceStart);
    result.push(out);
    pieceStart = pieceEnd;
  }
  return result;
}

/** The same as Next writes it into a <script>: JSON with the characters that could end the script escaped. */
function flightScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[&><\u2028\u2029]/g, (character) => HTML_JSON_ESCAPES[character] ?? character);
}

type FlightScript = { index: number; length: number; chunk: unknown[] };

function flightScriptsOf(html: string): FlightScript[] {
  const scripts = [...html.matchAll(FLIGHT_SCRIPT)].map((match) => {
    let chunk: unknown;
    try {
      chunk = JSON.parse(match[1]!);
    } catch {
      throw new FlightChangedError('A flight script of another form');
    }
    if (!Array.isArray(chunk) || !FLIGHT_CHUNK_TYPES.has(chunk[0] as number)) {
      throw new FlightChangedError(`A flight chunk of an unknown kind (${match[1]!.slice(0, 20)})`);
    }
    if (chunk[0] === FLIGHT_TEXT && typeof chunk[1] !== 'string') throw new FlightChangedError('A flight text chunk without text');
    return { index: match.index, length: match[0].length, chunk };
  });
  if (scripts.length !== [...html.matchAll(ANY_FLIGHT_PUSH)].length) throw new FlightChangedError('A flight script of another form');
  return scripts;
}

/**
 * A prerendered page with the stylesheets' copies in its inline flight data emptied. The text chunks
 * are one stream however Next cut it into scripts: the rows are found in the joined stream, and each
 * script keeps its own part of it (a script left with no text is dropped).
 */
export function emptyStylesheetRowsInHtml(html: string, stylesheets: readonly string[]): string {
  const scripts = flightScriptsOf(html).filter((script) => script.chunk[0] === FLIGHT_TEXT);
  const pieces = scripts.map((script) => script.chunk[1] as string);
  const edits = stylesheetRowEdits(pieces.join(''), stylesheets);
  if (edits.length === 0) return html;
  const rewritten = applyEdits(pieces, edits);

  let result = '';
  let at = 0;
  scripts.forEach((script, index) => {
    result += html.slice(at, script.index);
    const text = rewritten[index]!;
    if (text === pieces[index]) result += html.slice(script.index, script.index + script.length);
    else if (text !== '')
      result += `<script>self.__next_f.push(${flightScriptJson([FLIGHT_TEXT, text, ...script.chunk.slice(2)])})</script>`;
    at = script.index + script.length;
  });
  result += html.slice(at);

  const flight = rewritten.join('');
  if (stylesheets.some((css) => flight.includes(css))) {
    throw new FlightChangedError("A copy of the stylesheet is left in a page's flight data");
  }
  return result;
}

/** The text of every stylesheet a page inlines, found by its <style data-href>. */
function inlinedStylesheets(html: string, readStylesheet: (href: string) => string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<style\b[^>]*\sdata-href="([^"]+)"[^>]*>/g)) {
    for (const href of match[1]!.split(' ')) {
      const css = readStylesheet(href);
      if (html.includes(`${match[0]}${css}`)) found.push(css);
    }
  }
  return found;
}

function filesUnder(folder: string, extensions: readonly string[]): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

type InlineCssReport = { stylesheets: number; files: number; bytesSaved: number };

/** Empties the flight copies of the stylesheet every prerendered page inlines, in a build folder. */
export function inlineCssOnce(distDir: string): InlineCssReport {
  const appFolder = path.join(distDir, 'server', 'app');
  const readStylesheet = (href: string) => readFileSync(path.join(distDir, decodeURIComponent(href.replace(/^\/_next\//, ''))), 'utf8');
  const pages = filesUnder(appFolder, ['.html']);
  if (pages.length === 0) throw new Error(`No prerendered page in ${appFolder}: run \`next build\` first`);

  // The global error page styles itself and inlines none; every other page inlines the root layout's.
  const perPage = pages
    .map((file) => new Set(inlinedStylesheets(readFileSync(file, 'utf8'), readStylesheet)))
    .filter((set) => set.size > 0);
  const everywhere = [...(perPage[0] ?? [])].filter((css) => perPage.every((set) => set.has(css)));

  let files = 0;
  let bytesSaved = 0;
  for (const file of [...pages, ...filesUnder(appFolder, ['.rsc'])]) {
    const before = readFileSync(file, 'utf8');
    const after = file.endsWith('.html') ? emptyStylesheetRowsInHtml(before, everywhere) : emptyStylesheetRows(before, everywhere);
    if (after === before) continue;
    writeFileSync(file, after);
    files += 1;
    bytesSaved += Buffer.byteLength(before) - Buffer.byteLength(after);
  }
  return { stylesheets: everywhere.length, files, bytesSaved };
}

if (process.argv[1]?.endsWith('inline-css-once.ts')) {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  const report = inlineCssOnce(distDir);
  console.log(`Inline CSS: the flight copies of ${report.stylesheets} stylesheet(s) emptied in ${report.files} files of ${distDir}`);
}
