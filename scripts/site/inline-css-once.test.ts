import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it('refuses a page whose stylesheet row is split across scripts rather than leaving a copy behind', () => {
    const row = textRow('2', css);
    const html = page({ styles: [[href, css]], flight: [row.slice(0, 20), row.slice(20)] });
    expect(() => emptyStylesheetRowsInHtml(html, [css])).toThrow(/split across flight scripts/);
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
