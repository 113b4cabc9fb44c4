import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { assetsOfPages, buildAssetsNamed, buildServiceWorker, publicFilesOfPages, stylesheetAssets } from './service-worker-build';

describe('what the service worker keeps offline', () => {
  it('finds the build assets a page names, in its tags and in its flight data', () => {
    const html =
      '<link rel="stylesheet" href="/_next/static/chunks/a1.css"/><script>(()=>{for(const s of ["/_next/static/chunks/b2.js"])})()</script>' +
      '<script>self.__next_f.push([1,"I[1,[\\"static/chunks/c3.js\\"]]"])</script><a href="/about">About</a>';
    expect(buildAssetsNamed(html)).toEqual(['/_next/static/chunks/a1.css', '/_next/static/chunks/b2.js', '/_next/static/chunks/c3.js']);
  });

  it("finds a stylesheet's fonts by their relative addresses", () => {
    expect(stylesheetAssets('@font-face{src:url(../media/font.p.woff2) format("woff2")}', '/_next/static/chunks/a1.css')).toEqual([
      '/_next/static/media/font.p.woff2',
    ]);
  });

  it('follows chunks to the chunks they load later (the form checks), and keeps only what the build has', () => {
    const files: Record<string, string> = {
      '/_next/static/chunks/page.js': 'import("static/chunks/checks.js")',
      '/_next/static/chunks/checks.js': 'export const schema = 1;',
      '/_next/static/chunks/site.css': 'a{background:url(../media/tick.svg)}',
      '/_next/static/media/tick.svg': '<svg/>',
    };
    const html =
      '<script src="/_next/static/chunks/page.js"></script><link href="/_next/static/chunks/site.css"/><script src="/_next/static/chunks/gone.js"></script>';
    expect(assetsOfPages([html], (url) => files[url] ?? null)).toEqual([
      '/_next/static/chunks/checks.js',
      '/_next/static/chunks/page.js',
      '/_next/static/chunks/site.css',
      '/_next/static/media/tick.svg',
    ]);
  });

  it('keeps the public files the pages show, with their query strings, if they exist', () => {
    const html =
      '<img src="/brand/logo.svg"/><link rel="icon" href="/icon.svg?icon.abc.svg"/><img src="/missing.png"/><a href="/contact">x</a>';
    expect(publicFilesOfPages([html], (url) => !url.startsWith('/missing'))).toEqual(['/brand/logo.svg', '/icon.svg?icon.abc.svg']);
  });
});

describe('the built worker', () => {
  let distDir = '';
  afterEach(() => rmSync(distDir, { recursive: true, force: true }));

  it('is one classic script (never a module: Firefox ESR runs no module workers) that starts with what it keeps', async () => {
    distDir = mkdtempSync(path.join(tmpdir(), 'service-worker-'));
    mkdirSync(path.join(distDir, 'server', 'app'), { recursive: true });
    mkdirSync(path.join(distDir, 'static', 'chunks'), { recursive: true });
    writeFileSync(path.join(distDir, 'static', 'chunks', 'form.js'), 'console.log(1)');
    for (const page of ['contact', 'insurers', 'offline']) {
      writeFileSync(
        path.join(distDir, 'server', 'app', `${page}.html`),
        `<h1>${page}</h1><script src="/_next/static/chunks/form.js"></script>`,
      );
    }
    const manifest = await buildServiceWorker(distDir);
    expect(manifest.pages).toEqual(['/contact', '/insurers', '/offline']);
    expect(manifest.assets).toEqual(['/_next/static/chunks/form.js']);
    const script = readFileSync(path.join(distDir, 'service-worker.js'), 'utf8');
    expect(script.startsWith(`self.__OFFLINE_MANIFEST__=${JSON.stringify(manifest)};`)).toBe(true);
    // Compiles as a classic script: an import or export statement would throw here.
    expect(() => new Script(script)).not.toThrow();

    // Another page content, another version: the browser installs the new worker.
    writeFileSync(path.join(distDir, 'server', 'app', 'contact.html'), '<h1>contact, changed</h1>');
    expect((await buildServiceWorker(distDir)).version).not.toBe(manifest.version);
  });
});
