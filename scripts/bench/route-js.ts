// The JavaScript a route's prerendered HTML makes a browser download, measured from the build folder:
// used by the JS budget test (tests/e2e/js-budget.spec.ts) and by `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Script URLs a modern browser fetches for this HTML: <script src> (not nomodule) and script preloads. */
export function scriptUrlsOfHtml(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bnomodule\b/i.test(attributes)) continue;
    const src = /\bsrc="([^"]+)"/i.exec(attributes)?.[1];
    if (src) urls.add(src);
  }
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
export function htmlFileOfRoute(distDir: string, route: string): string {
  const name = route === '/' ? 'index' : route.replace(/^\//, '');
  return path.join(distDir, 'server', 'app', `${name}.html`);
}

export type RouteJs = { route: string; scripts: { url: string; bytes: number; gzipBytes: number }[]; bytes: number; gzipBytes: number };

/** Raw and gzipped (zlib's default level, as Next's compression sends them) bytes of a route's scripts. */
export function measureRouteJs(distDir: string, route: string): RouteJs {
  const htmlFile = htmlFileOfRoute(distDir, route);
  if (!existsSync(htmlFile)) throw new Error(`${htmlFile} not found: is ${route} prerendered in ${distDir}?`);
  const scripts = scriptUrlsOfHtml(readFileSync(htmlFile, 'utf8')).map((url) => {
    const pathname = new URL(url, 'http://site.invalid').pathname;
    if (!pathname.startsWith('/_next/static/')) throw new Error(`${route} references a script outside /_next/static: ${url}`);
    const body = readFileSync(path.join(distDir, 'static', pathname.slice('/_next/static/'.length)));
    return { url, bytes: body.length, gzipBytes: gzipSync(body).length };
  });
  return {
    route,
    scripts,
    bytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
  };
}
