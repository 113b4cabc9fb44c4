// After `next build`: hashes every inline script of every prerendered page, so the server can send a
// Content-Security-Policy whose script-src allows exactly those scripts (no 'unsafe-inline', no nonces).
// Writes {distDir}/csp-manifest.json, with the build-time settings the build was made with
// (server/base/build-settings.mjs); server/edge/response-headers.mjs reads it. Run by scripts/site/build.mjs, the
// one build of the site (`npm run build`, `npm start` when it builds, the test build, the benchmarks).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nextEnv from '@next/env';
import { buildSettingsOf } from '../../server/base/build-settings.mjs';
import { config, parseConfig } from '../../server/base/config.mjs';
import { buildOrigins, CSP_MANIFEST_FILE, type CspManifest } from '../../server/edge/response-headers.mjs';

const EXECUTABLE_TYPES = new Set(['', 'text/javascript', 'application/javascript', 'module', 'text/ecmascript']);

/** The sha256 sources of the inline scripts a browser would run in this HTML (JSON-LD and other data blocks excluded). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    if (/\bsrc\s*=/i.test(attributes) || body === '') continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
    if (!EXECUTABLE_TYPES.has(type)) continue;
    hashes.add(`sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`);
  }
  return [...hashes].sort();
}

/** `index.html` → '/', `about.html` → '/about', `a/b.html` → '/a/b'. */
export function routeOfHtmlFile(relativePath: string): string {
  const withoutExtension = relativePath
    .split(path.sep)
    .join('/')
    .replace(/\.html$/, '');
  if (withoutExtension === 'index') return '/';
  return `/${withoutExtension.replace(/\/index$/, '')}`;
}

function htmlFiles(folder: string, base = folder): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return htmlFiles(full, base);
    return entry.name.endsWith('.html') ? [path.relative(base, full)] : [];
  });
}

function writeCspManifest(distDir: string, env: Record<string, string | undefined> = process.env): CspManifest {
  const publicSettings = parseConfig(env).public;
  const appFolder = path.join(distDir, 'server', 'app');
  if (!existsSync(appFolder)) throw new Error(`${appFolder} not found: run \`next build\` first`);
  const pages: Record<string, string[]> = {};
  for (const file of htmlFiles(appFolder).sort()) {
    pages[routeOfHtmlFile(file)] = inlineScriptHashes(readFileSync(path.join(appFolder, file), 'utf8'));
  }
  const manifest: CspManifest = {
    version: 1,
    pages,
    ...buildOrigins(publicSettings),
    builtWith: buildSettingsOf(env),
  };
  writeFileSync(path.join(distDir, CSP_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('csp-hashes.ts')) {
  // The same .env files `next build` read, so the manifest records the values the bundle inlined.
  nextEnv.loadEnvConfig(process.cwd());
  const { distDir } = config();
  const manifest = writeCspManifest(distDir);
  const count = Object.keys(manifest.pages).length;
  console.log(`CSP: hashed the inline scripts of ${count} prerendered pages into ${path.join(distDir, CSP_MANIFEST_FILE)}`);
}
