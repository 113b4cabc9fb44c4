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
const HTML_JSON_ESCAPES: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** A flight text row of exactly this text: `<id>:T<byte length in hex>,<text>`. */
function textRowHeader(text: string): string {
  return `:T${Buffer.byteLength(text, 'utf8').toString(16)},`;
}

/** Empties every flight text row whose text is one of `stylesheets`; returns the flight unchanged otherwise. */
export function emptyStylesheetRows(flight: string, stylesheets: readonly string[]): string {
  let result = flight;
  for (const css of stylesheets) result = result.split(`${textRowHeader(css)}${css}`).join(':T0,');
  return result;
}

/** Whether a row of this stylesheet starts in `flight` (whole rows are emptied already: this finds a cut one). */
function startsStylesheetRow(flight: string, css: string): boolean {
  const header = textRowHeader(css);
  for (let index = flight.indexOf(header); index !== -1; index = flight.indexOf(header, index + 1)) {
    const following = flight.slice(index + header.length, index + header.length + 64);
    if (css.startsWith(following)) return true;
  }
  return false;
}

/** The same as Next writes it into a <script>: JSON with the characters that could end the script escaped. */
function flightScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[&><\u2028\u2029]/g, (character) => HTML_JSON_ESCAPES[character] ?? character);
}

/** A prerendered page with the stylesheets' copies in its inline flight data emptied. */
export function emptyStylesheetRowsInHtml(html: string, stylesheets: readonly string[]): string {
  return html.replace(FLIGHT_SCRIPT, (script, json: string) => {
    const chunk: unknown = JSON.parse(json);
    if (!Array.isArray(chunk) || typeof chunk[1] !== 'string') return script;
    const flight = emptyStylesheetRows(chunk[1], stylesheets);
    if (stylesheets.some((css) => startsStylesheetRow(flight, css))) {
      throw new Error('A stylesheet is split across flight scripts: Next changed how it writes them; see decision 0030.');
    }
    return flight === chunk[1] ? script : `<script>self.__next_f.push(${flightScriptJson([chunk[0], flight, ...chunk.slice(2)])})</script>`;
  });
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
