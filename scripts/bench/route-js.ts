// What a route's prerendered HTML makes a browser download, measured from the build folder: its
// JavaScript (the scripts it references and its inline scripts) and the HTML itself. Used by the JS
// budget test (tests/e2e/js-budget.spec.ts) and by `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chunksLoadedAfterPaint } from '../site/scripts-after-paint';

/**
 * Script URLs a modern browser fetches for this HTML: <script src> (not nomodule), script preloads and
 * the chunks the page loads after its first paint.
 */
function scriptUrlsOfHtml(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bnomodule\b/i.test(attributes)) continue;
    const src = /\bsrc="([^"]+)"/i.exec(attributes)?.[1];
    if (src) urls.add(src);
  }
  for (const url of chunksLoadedAfterPaint(html)) urls.add(url);
  for (const match of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    const isScriptPreload = /\brel="preload"/i.test(attributes) && /\bas="script"/i.test(attributes);
    if (!isScriptPreload && !/\brel="modulepreload"/i.test(attributes)) continue;
    const href = /\bhref="([^"]+)"/i.exec(attributes)?.[1];
    if (href) urls.add(href);
  }
  return [...urls];
}

/** The prerendered HTML file of a route in a build folder. */
function htmlFileOfRoute(distDir: string, route: string): string {
  const name = route === '/' ? 'index' : route.replace(/^\//, '');
  return path.join(distDir, 'server', 'app', `${name}.html`);
}

/** The inline scripts a browser runs (not JSON-LD or other data blocks), in document order. */
function inlineScriptsOfHtml(html: string): string[] {
  const bodies: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes) || /\btype\s*=\s*"application\/(?:ld\+)?json"/i.test(attributes)) continue;
    if (match[2]) bodies.push(match[2]);
  }
  return bodies;
}

type RouteJs = {
  route: string;
  scripts: { url: string; bytes: number; gzipBytes: number }[];
  /** The inline scripts (mostly the flight data), gzipped together as they travel inside the HTML. */
  inline: { count: number; bytes: number; gzipBytes: number };
  /** External and inline together. */
  bytes: number;
  gzipBytes: number;
};

/** Raw and gzipped (zlib's default level, as Next's compression sends them) bytes of a route's scripts. */
export function measureRouteJs(distDir: string, route: string): RouteJs {
  const htmlFile = htmlFileOfRoute(distDir, route);
  if (!existsSync(htmlFile)) throw new Error(`${htmlFile} not found: is ${route} prerendered in ${distDir}?`);
  const html = readFileSync(htmlFile, 'utf8');
  const inlineBodies = inlineScriptsOfHtml(html).join('\n');
  const inline = {
    count: inlineScriptsOfHtml(html).length,
    bytes: Buffer.byteLength(inlineBodies),
    gzipBytes: gzipSync(inlineBodies).length,
  };
  const scripts = scriptUrlsOfHtml(html).map((url) => {
    const pathname = new URL(url, 'http://site.invalid').pathname;
    if (!pathname.startsWith('/_next/static/')) throw new Error(`${route} references a script outside /_next/static: ${url}`);
    const body = readFileSync(path.join(distDir, 'static', pathname.slice('/_next/static/'.length)));
    return { url, bytes: body.length, gzipBytes: gzipSync(body).length };
  });
  return {
    route,
    scripts,
    inline,
    bytes: scripts.reduce((sum, script) => sum + script.bytes, inline.bytes),
    gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, inline.gzipBytes),
  };
}

type RouteHtml = { route: string; bytes: number; gzipBytes: number; stylesheetCopies: number };

/**
 * A route's prerendered HTML: its raw and gzipped bytes, and how many times the stylesheet it inlines
 * appears in it (its first rule, counted raw and as escaped inside the flight data's scripts).
 */
export function measureRouteHtml(distDir: string, route: string): RouteHtml {
  const html = readFileSync(htmlFileOfRoute(distDir, route), 'utf8');
  const style = /<style\b[^>]*\sdata-href="[^"]+"[^>]*>([^<]{1,80})/.exec(html)?.[1] ?? '';
  const marker = style.slice(0, Math.min(40, style.indexOf('{') > 0 ? style.indexOf('{') + 1 : 40));
  const escapedMarker = JSON.stringify(marker).slice(1, -1);
  const count = (text: string) => (text ? html.split(text).length - 1 : 0);
  return {
    route,
    bytes: Buffer.byteLength(html),
    gzipBytes: gzipSync(html).length,
    stylesheetCopies: escapedMarker === marker ? count(marker) : count(marker) + count(escapedMarker),
  };
}
