import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyStylesheetRows, emptyStylesheetRowsInHtml, inlineCssOnce } from './inline-css-once';

const css = 'body{color:red}.a>.b{content:"→"}';
const href = '/_next/static/chunks/site.css';
const pageCss = '.only-here{color:blue}';
const pageHref = '/_next/static/chunks/page.css';

function textRow(id: string, text: string) {
  return `${id}:T${Buffer.byteLength(text).toString(16)},${text}`;
}

/** A flight push as Next writes it into a page: JSON with <, > and & escaped. */
function flightScript(flight: string) {
  const json = JSON.stringify([1, flight]).replace(/[<>&]/g, (character) => `\\u00${character.charCodeAt(0).toString(16)}`);
  return `<script>self.__next_f.push(${json})</script>`;
}

function page({ styles, flight }: { styles: [string, string][]; flight: string[] }) {
  const head = styles.map(([styleHref, text]) => `<style data-precedence="next" data-href="${styleHref}">${text}</style>`).join('');
  return `<!DOCTYPE html><html><head>${head}</head><body><h1>Hi</h1>${flight.map(flightScript).join('')}</body></html>`;
}

function textRowHeaderOf(text: string) {
  return `:T${Buffer.byteLength(text).toString(16)},`;
}

/** The text of each flight script of a page, in order. */
function flightTexts(html: string): string[] {
  return [...html.matchAll(/self\.__next_f\.push\((.*?)\)<\/script>/g)].map((match) => JSON.parse(match[1]!)[1] as string);
}

const layoutRows = [
  `0:["$","style","0",{"href":"${href}","children":"$2"}]\n${textRow('2', css)}`,
  `b:["$","p",null,{"children":"<ok>"}]\n${textRow('26', css)}`,
];

describe('the stylesheet once per page', () => {
  it('empties the flight rows that carry the stylesheet, leaving every other row and script as it was', () => {
    const untouched = flightScript('c:["$","main",null,{"children":"a < b & c"}]\n');
    const html = page({ styles: [[href, css]], flight: layoutRows }).replace('</body>', `${untouched}</body>`);
    const result = emptyStylesheetRowsInHtml(html, [css]);

    expect(result.split(css)).toHaveLength(2);
    expect(result).toContain(`<style data-precedence="next" data-href="${href}">${css}</style>`);
    expect(result).toContain(untouched);
    const flights = [...result.matchAll(/self\.__next_f\.push\((.*?)\)<\/script>/g)].map((match) => JSON.parse(match[1]!)[1] as string);
    expect(flights[0]).toBe(`0:["$","style","0",{"href":"${href}","children":"$2"}]\n2:T0,`);
    expect(flights[1]).toBe('b:["$","p",null,{"children":"<ok>"}]\n26:T0,');
    // Still escaped as Next escapes it, so no script can be ended early by the text it carries.
    expect(result).not.toContain('"<ok>"');
  });

  it('counts the row length in UTF-8 bytes, so a stylesheet with non-ASCII text is found', () => {
    expect(emptyStylesheetRows(textRow('2', css), [css])).toBe('2:T0,');
    const wrongLength = `2:T${css.length.toString(16)},${css}`;
    expect(emptyStylesheetRows(wrongLength, [css])).toBe(wrongLength);
  });

  it('empties a row cut across scripts anywhere (in its id, its header or its text) and keeps every script’s framing', () => {
    const row = textRow('2', css);
    const before = 'a:["$","p",null,{}]\n';
    const after = '\nc:["$","main",null,{}]\n';
    const stream = `${before}${row}${after}`;
    const expected = `${before}2:T0,${after}`;
    for (let first = 1; first < stream.length - 1; first += 1) {
      for (const second of [first + 1, Math.min(first + 7, stream.length - 1)]) {
        const pieces = [stream.slice(0, first), stream.slice(first, second), stream.slice(second)];
        const result = emptyStylesheetRowsInHtml(page({ styles: [[href, css]], flight: pieces }), [css]);
        const flights = flightTexts(result);
        expect(flights.join(''), `cut at ${first} and ${second}`).toBe(expected);
        expect(result.split(css)).toHaveLength(2);
        // A script keeps what it held outside the row; one that held only the row's text is dropped.
        const [rowFrom, rowTo] = [stream.indexOf(':T'), before.length + row.length];
        let start = 0;
        const kept = pieces.filter((piece) => {
          const [from, to] = [start, (start += piece.length)];
          return from < rowFrom || to > rowTo || (from <= rowFrom && rowFrom < to);
        });
        expect(flights).toHaveLength(kept.length);
      }
    }
  });

  it('stops the build on a flight chunk of a kind it cannot read (binary) or a push of another form', () => {
    const binary = page({ styles: [[href, css]], flight: layoutRows }).replace(
      '</body>',
      '<script>self.__next_f.push([3,"AAEC"])</script></body>',
    );
    expect(() => emptyStylesheetRowsInHtml(binary, [css])).toThrow(
      /flight chunk of an unknown kind.*Next changed how it writes its flight data/,
    );
    const other = page({ styles: [[href, css]], flight: layoutRows }).replace(
      '</body>',
      '<script>self.__next_f.push([1,"x"]);self.__next_f.push([1,"y"])</script></body>',
    );
    expect(() => emptyStylesheetRowsInHtml(other, [css])).toThrow(/flight script of another form/);
  });

  // Privacy pages as `next build` (Next 16.4.6) wrote them before this step: under Node 24 the flight
  // data is one script with whole rows; under Node 26 it is 19 scripts and each stylesheet row's
  // header ends one script while its text fills the next.
  it.each(['node24', 'node26'])('a real prerendered page from %s: the stylesheet once, every other row as it was', (line) => {
    const html = gunzipSync(readFileSync(path.join(import.meta.dirname, 'fixtures', `privacy.${line}.html.gz`))).toString('utf8');
    const stylesheet = /<style [^>]*data-href="[^"]+"[^>]*>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const flight = flightTexts(html).join('');
    expect(flight.split(`${textRowHeaderOf(stylesheet)}${stylesheet}`)).toHaveLength(3);

    const result = emptyStylesheetRowsInHtml(html, [stylesheet]);
    expect(result.split(stylesheet)).toHaveLength(2);
    expect(flightTexts(result).join('')).toBe(flight.split(`${textRowHeaderOf(stylesheet)}${stylesheet}`).join(':T0,'));
    expect(result.replace(/<script>self\.__next_f\.push\([\s\S]*?\)<\/script>/g, '')).toBe(
      html.replace(/<script>self\.__next_f\.push\([\s\S]*?\)<\/script>/g, ''),
    );
    expect(Buffer.byteLength(html) - Buffer.byteLength(result)).toBeGreaterThan(2 * stylesheet.length);
  });

  it('in a build folder: empties the stylesheet every page inlines, in pages and flight files, and only that one', () => {
    const distDir = mkdtempSync(path.join(tmpdir(), 'inline-css-'));
    const app = path.join(distDir, 'server', 'app');
    mkdirSync(path.join(distDir, 'static', 'chunks'), { recursive: true });
    mkdirSync(path.join(app, 'index.segments'), { recursive: true });
    writeFileSync(path.join(distDir, 'static', 'chunks', 'site.css'), css);
    writeFileSync(path.join(distDir, 'static', 'chunks', 'page.css'), pageCss);
    const pageRow = `${textRow('3', pageCss)}\n`;
    writeFileSync(path.join(app, 'index.html'), page({ styles: [[href, css]], flight: layoutRows }));
    writeFileSync(
      path.join(app, 'about.html'),
      page({
        styles: [
          [href, css],
          [pageHref, pageCss],
        ],
        flight: [...layoutRows, pageRow],
      }),
    );
    writeFileSync(path.join(app, '_global-error.html'), page({ styles: [], flight: ['0:["$","html",null,{}]\n'] }));
    writeFileSync(path.join(app, 'index.rsc'), `${layoutRows.join('')}\n`);
    writeFileSync(path.join(app, 'index.segments', '_full.segment.rsc'), `${textRow('2', css)}\n${pageRow}`);

    expect(inlineCssOnce(distDir)).toMatchObject({ stylesheets: 1, files: 4 });
    for (const file of ['index.html', 'about.html']) expect(readFileSync(path.join(app, file), 'utf8').split(css)).toHaveLength(2);
    expect(readFileSync(path.join(app, 'index.rsc'), 'utf8')).not.toContain(css);
    // A stylesheet only some pages inline must reach the others with a client-side navigation.
    expect(readFileSync(path.join(app, 'index.segments', '_full.segment.rsc'), 'utf8')).toBe(`2:T0,\n${pageRow}`);
    expect(readFileSync(path.join(app, 'about.html'), 'utf8')).toContain(JSON.stringify(pageRow).slice(1, -1));
    // Run again on the same folder: nothing left to empty.
    expect(inlineCssOnce(distDir)).toMatchObject({ files: 0 });
  });
});
