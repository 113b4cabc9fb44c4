// After the CSP hash step: builds the site's service worker (lib/offline/service-worker.ts) into one
// classic script, {distDir}/service-worker.js, that app/service-worker.js/route.ts serves. Before the
// bundled worker it writes what the worker keeps for a visitor with no signal: the pages of
// PAGES_KEPT_OFFLINE as prerendered, every build asset they load (their stylesheets and fonts, their
// chunks and the chunks those load later, such as the form's checks), the files of public/ they show,
// and a version that changes whenever any of them does. Decision 0056 says why by hand.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import nextEnv from '@next/env';
import { config } from '../../server/base/config.mjs';
import { PAGES_KEPT_OFFLINE, SERVICE_WORKER_FILE } from '../../lib/offline/protocol';
import type { OfflineManifest } from '../../lib/offline/service-worker';

const BUILD_ASSET = /(?<![A-Za-z0-9_/.-])(?:\/_next\/)?static\/(?:chunks|media|css)\/[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*/g;
const STYLESHEET_URL = /url\(\s*["']?(\.\.\/media\/[A-Za-z0-9._~-]+)["']?\s*\)/g;
const PUBLIC_FILE = /(?:src|href)="(\/[A-Za-z0-9._~/-]+\.(?:svg|png|webp|jpe?g|ico|webmanifest)(?:\?[A-Za-z0-9._~=&-]*)?)"/g;

/** Every build asset `text` names, as `/_next/static/…` URLs. */
export function buildAssetsNamed(text: string): string[] {
  return [...text.matchAll(BUILD_ASSET)].map(([match]) => `/_next/${match.replace(/^\/_next\//, '')}`);
}

/** The fonts and images a stylesheet at `stylesheetUrl` names with relative URLs. */
export function stylesheetAssets(css: string, stylesheetUrl: string): string[] {
  return [...css.matchAll(STYLESHEET_URL)].map((match) => new URL(match[1]!, `http://site${stylesheetUrl}`).pathname);
}

/** The build assets of `pages` and, in turn, of those assets, that exist in the build. */
export function assetsOfPages(pages: readonly string[], readAsset: (url: string) => string | null): string[] {
  const found = new Set<string>();
  const queue = pages.flatMap(buildAssetsNamed);
  while (queue.length > 0) {
    const url = queue.pop()!;
    if (found.has(url)) continue;
    const text = readAsset(url);
    if (text === null) continue;
    found.add(url);
    if (url.endsWith('.js')) queue.push(...buildAssetsNamed(text));
    if (url.endsWith('.css')) queue.push(...stylesheetAssets(text, url));
  }
  return [...found].sort();
}

export function publicFilesOfPages(pages: readonly string[], exists: (url: string) => boolean): string[] {
  return [...new Set(pages.flatMap((html) => [...html.matchAll(PUBLIC_FILE)].map((match) => match[1]!)))].filter(exists).sort();
}

export function offlineManifest(distDir: string, publicDir = 'public'): OfflineManifest {
  const html = PAGES_KEPT_OFFLINE.map((page) => {
    const file = path.join(distDir, 'server', 'app', `${page.slice(1)}.html`);
    if (!existsSync(file)) throw new Error(`${file} not found: ${page} must be prerendered to be kept offline`);
    return readFileSync(file, 'utf8');
  });
  const readAsset = (url: string) => {
    const file = path.join(distDir, url.replace(/^\/_next\//, ''));
    return existsSync(file) ? readFileSync(file, url.endsWith('.js') || url.endsWith('.css') ? 'utf8' : 'latin1') : null;
  };
  const exists = (url: string) => {
    const file = url.split('?')[0]!.slice(1);
    return existsSync(path.join(publicDir, file)) || existsSync(path.join(distDir, 'server', 'app', `${file}.body`));
  };
  const assets = [...assetsOfPages(html, readAsset), ...publicFilesOfPages(html, exists)];
  const version = createHash('sha256').update(JSON.stringify(assets)).update(html.join('\0')).digest('base64url').slice(0, 16);
  return { version, pages: [...PAGES_KEPT_OFFLINE], assets };
}

export async function buildServiceWorker(distDir: string): Promise<OfflineManifest> {
  const manifest = offlineManifest(distDir);
  await build({
    entryPoints: ['lib/offline/service-worker.ts'],
    outfile: path.join(distDir, SERVICE_WORKER_FILE),
    bundle: true,
    format: 'iife',
    target: ['es2022'],
    platform: 'browser',
    minify: true,
    legalComments: 'none',
    banner: { js: `self.__OFFLINE_MANIFEST__=${JSON.stringify(manifest)};` },
    logLevel: 'warning',
  });
  return manifest;
}

if (process.argv[1]?.endsWith('service-worker-build.ts')) {
  nextEnv.loadEnvConfig(process.cwd());
  const { distDir } = config();
  const manifest = await buildServiceWorker(distDir);
  const bytes = readFileSync(path.join(distDir, SERVICE_WORKER_FILE)).length;
  console.log(
    `Service worker: ${path.join(distDir, SERVICE_WORKER_FILE)} (${bytes} bytes), keeping ${manifest.pages.length} pages and ${manifest.assets.length} assets offline`,
  );
}
