// After `next build` and the inline stylesheet step, before the CSP hashes: Next's own chunks load after
// the page's first paint instead of beside the document. Every prerendered page is complete HTML that
// works without them (links, the form), so a phone on a slow link spends its first round trips on the
// document and paints it, then fetches about 135 KB of JavaScript to make it interactive. Next writes its
// chunks as `<script async>` (and one script preload); this step replaces them with one small inline
// script that adds the same scripts, as async scripts, once the browser reports the first contentful
// paint, or once the page has loaded where it never will (a tab in the background, a browser without
// paint timing). Decision 0031 says why, and what it costs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CHUNK_SCRIPT = /<script src="(\/_next\/static\/[^"]+\.js)" async=""><\/script>/g;
const CHUNK_PRELOAD = /<link rel="preload" as="script"(?: fetchPriority="[a-z]+")? href="\/_next\/static\/[^"]+\.js"\/>/g;

const LOADER_LIST = /<script>\(\(\)=>\{let d=0;const go=\(\)=>\{if\(d\)return;d=1;for\(const s of (\[[^\]]*\])\)/;

/** The chunks a page rewritten by this step loads after its first paint ([] for any other page). */
export function chunksLoadedAfterPaint(html: string): string[] {
  const list = LOADER_LIST.exec(html)?.[1];
  return list ? (JSON.parse(list) as string[]) : [];
}

/** The inline script that adds `sources` after the first contentful paint (or the load event). */
export function chunkLoader(sources: readonly string[]): string {
  // JSON inside a <script>: no '<' can occur in a /_next/static path, so nothing can end the script.
  const list = JSON.stringify(sources);
  return (
    `<script>(()=>{let d=0;const go=()=>{if(d)return;d=1;for(const s of ${list}){const e=document.createElement("script");` +
    `e.src=s;e.async=true;document.head.appendChild(e)}};` +
    `try{new PerformanceObserver((l,o)=>{if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}})` +
    `.observe({type:"paint",buffered:true})}catch{}` +
    `addEventListener("load",()=>setTimeout(go,document.visibilityState==="visible"&&PerformanceObserver.supportedEntryTypes?.includes("paint")?3000:0))})()</script>`
  );
}

/** Whether a page still holds an async script or a script preload from the build. */
function leavesChunkBehind(html: string): boolean {
  for (const [tag] of html.matchAll(/<(?:script|link)\s[^>]*>/g)) {
    const fromBuild = tag.includes('"/_next/static/');
    if (fromBuild && tag.startsWith('<script') && /\sasync[\s=>]/.test(tag)) return true;
    if (fromBuild && tag.startsWith('<link') && tag.includes('as="script"')) return true;
  }
  return false;
}

/** A prerendered page with its chunk scripts loaded after the first paint; unchanged when it has none. */
export function loadChunksAfterPaint(html: string): string {
  const sources = [...html.matchAll(CHUNK_SCRIPT)].map((match) => match[1]!);
  if (sources.length === 0) {
    if (leavesChunkBehind(html)) throw new Error('A chunk script is left in a page: Next changed how it writes them; see decision 0031.');
    return html;
  }
  const firstAt = html.search(CHUNK_SCRIPT);
  const before = html.slice(0, firstAt).replace(CHUNK_PRELOAD, '');
  const after = html.slice(firstAt).replace(CHUNK_SCRIPT, '').replace(CHUNK_PRELOAD, '');
  const result = `${before}${chunkLoader([...new Set(sources)])}${after}`;
  if (leavesChunkBehind(result)) {
    throw new Error('A chunk script is left in a page: Next changed how it writes them; see decision 0031.');
  }
  return result;
}

type ScriptsAfterPaintReport = { files: number };

/** Rewrites every prerendered page of a build folder. */
export function scriptsAfterPaint(distDir: string): ScriptsAfterPaintReport {
  const appFolder = path.join(distDir, 'server', 'app');
  const pages = readdirSync(appFolder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  if (pages.length === 0) throw new Error(`No prerendered page in ${appFolder}: run \`next build\` first`);
  let files = 0;
  for (const file of pages) {
    const before = readFileSync(file, 'utf8');
    const after = loadChunksAfterPaint(before);
    if (after === before) continue;
    writeFileSync(file, after);
    files += 1;
  }
  return { files };
}

if (process.argv[1]?.endsWith('scripts-after-paint.ts')) {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  const report = scriptsAfterPaint(distDir);
  console.log(`Chunks after the first paint: ${report.files} pages of ${distDir}`);
}
