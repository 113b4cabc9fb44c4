// `npm run bench`: builds the production site into .next-bench, serves it with server.mjs on a free
// port (3900 and up), runs Lighthouse 12 (mobile, its default throttling) several times per route in
// Debian's Chromium, and reports the median of each figure next to issue 6's targets. It also measures
// the floor: a bare Next.js page built with the same next and react in a temporary folder, whose
// gzipped JavaScript the budgets are counted from and whose Lighthouse figures show what the
// framework alone scores on the same machine. BENCH_RUNS sets the runs per page (default 3).
// Prints a table and writes bench-results/bench-<time>.json and .md (and latest.json/latest.md).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { measureRouteJs } from './route-js';
import { routes } from '../tests/e2e/support/routes';
import { jsBudgetOverFloor } from '../tests/e2e/support/js-budget';

const RUNS = Number(process.env.BENCH_RUNS || 3);
const DIST_DIR = '.next-bench';
const FLOOR_DIR = '.bench-floor';
const CHROME_PATH = process.env.CHROME_PATH || process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const KB = 1024;
const targets = { performance: 98, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 1800, cls: 0, homeTotalBytes: 500 * KB };

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const result = spawnSync(command, args, { stdio: 'inherit', env, cwd });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port += 1) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .once('listening', () => probe.close(() => resolve(true)))
        .listen(port, '127.0.0.1');
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A bare Next.js page (one layout, one page) with this project's next and react: the JS floor. Built in
 * FLOOR_DIR, which main() serves for Lighthouse too and removes at the end.
 */
function measureFloor(env: NodeJS.ProcessEnv): { gzipBytes: number; scripts: number } {
  // Inside the project so Turbopack resolves next and react from its node_modules (a symlinked
  // node_modules outside the workspace root is refused); removed afterwards.
  rmSync(FLOOR_DIR, { recursive: true, force: true });
  mkdirSync(path.join(FLOOR_DIR, 'app'), { recursive: true });
  writeFileSync(path.join(FLOOR_DIR, 'package.json'), '{ "name": "next-floor", "private": true }\n');
  writeFileSync(path.join(FLOOR_DIR, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(process.cwd())} } };\n`);
  writeFileSync(
    path.join(FLOOR_DIR, 'app', 'layout.jsx'),
    'export default function RootLayout({ children }) {\n  return (<html lang="en"><body>{children}</body></html>);\n}\n',
  );
  writeFileSync(path.join(FLOOR_DIR, 'app', 'page.jsx'), 'export default function Page() {\n  return <h1>Hello</h1>;\n}\n');
  run(process.execPath, [path.resolve('node_modules/next/dist/bin/next'), 'build'], floorEnv(env), path.resolve(FLOOR_DIR));
  const measured = measureRouteJs(path.join(FLOOR_DIR, '.next'), '/');
  return { gzipBytes: measured.gzipBytes, scripts: measured.scripts.length };
}

function floorEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.NEXT_DIST_DIR;
  return copy;
}

async function waitForServer(url: string, server: ChildProcess) {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (server.exitCode !== null) throw new Error('the server exited before answering');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

type RunFigures = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  totalBytes: number;
  lcpElement?: string;
};

async function lighthouseRun(url: string, port: number): Promise<RunFigures> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const value = (id: string) => Number(audits[id]?.numericValue ?? NaN);
  const lcpDetails = audits['largest-contentful-paint-element']?.details as
    { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    totalBytes: value('total-byte-weight'),
    lcpElement: lcpDetails?.items?.[0]?.items?.[0]?.node?.snippet,
  };
}

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP); such a run is repeated, not counted. */
async function withRetries<T>(attempt: () => Promise<T>, tries = 3): Promise<T> {
  for (let index = 1; ; index += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (index >= tries) throw error;
      console.warn(`  Lighthouse run failed (${error instanceof Error ? error.message : String(error)}); running it again`);
    }
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    nproc: os.availableParallelism?.() ?? cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    chromium: spawnSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'unknown',
  };
}

async function main() {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: DIST_DIR };
  const versions = {
    next: JSON.parse(readFileSync('node_modules/next/package.json', 'utf8')).version as string,
    react: JSON.parse(readFileSync('node_modules/react/package.json', 'utf8')).version as string,
    lighthouse: JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')).version as string,
  };

  console.log('== Building the site into .next-bench');
  run(process.execPath, ['node_modules/next/dist/bin/next', 'build'], env);
  run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/csp-hashes.ts'], env);

  console.log('== Building a bare Next.js page for the JS floor');
  const floor = measureFloor(env);
  console.log(`Floor: ${floor.gzipBytes} B gzipped JS in ${floor.scripts} scripts`);

  const port = await freePort(3900);
  const baseUrl = `http://127.0.0.1:${port}`;
  mkdirSync('data/bench', { recursive: true });
  const server = spawn(process.execPath, ['server.mjs'], {
    env: { ...env, PORT: String(port), HOSTNAME: '127.0.0.1', DATABASE_URL: 'file:data/bench/site.db' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const floorPort = await freePort(port + 1);
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  const floorServer = spawn(
    process.execPath,
    [path.resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(floorPort), '-H', '127.0.0.1'],
    {
      env: floorEnv(env),
      cwd: path.resolve(FLOOR_DIR),
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForServer(`${baseUrl}/`, server);
    console.log(`== Lighthouse ${versions.lighthouse}, mobile, ${RUNS} runs per route against ${baseUrl}`);
    chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const lighthouseRuns = async (url: string, label: string): Promise<RunFigures[]> => {
      const runs: RunFigures[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        runs.push(await withRetries(() => lighthouseRun(url, chrome!.port)));
        process.stdout.write(
          `  ${label} run ${index + 1}: performance ${runs.at(-1)!.performance}, LCP ${Math.round(runs.at(-1)!.lcpMs)} ms, TBT ${Math.round(runs.at(-1)!.tbtMs)} ms\n`,
        );
      }
      return runs;
    };
    const medianOf = (runs: RunFigures[], key: Exclude<keyof RunFigures, 'lcpElement'>) => median(runs.map((figures) => figures[key]));

    // What the framework alone scores on this machine: the reference for the site's figures.
    await waitForServer(`${floorUrl}/`, floorServer);
    const floorRuns = await lighthouseRuns(`${floorUrl}/`, 'bare Next page');
    const floorFigures = {
      performance: medianOf(floorRuns, 'performance'),
      lcpMs: Math.round(medianOf(floorRuns, 'lcpMs')),
      tbtMs: Math.round(medianOf(floorRuns, 'tbtMs')),
      totalBytes: Math.round(medianOf(floorRuns, 'totalBytes')),
      runs: floorRuns,
    };

    const results = [];
    for (const route of routes) {
      const runs = await lighthouseRuns(`${baseUrl}${route.path}`, route.path);
      const pick = (key: Exclude<keyof RunFigures, 'lcpElement'>) => medianOf(runs, key);
      const js = measureRouteJs(DIST_DIR, route.path);
      const budget = jsBudgetOverFloor[route.path] ?? 15 * KB;
      results.push({
        route: route.path,
        performance: pick('performance'),
        accessibility: pick('accessibility'),
        bestPractices: pick('bestPractices'),
        seo: pick('seo'),
        lcpMs: Math.round(pick('lcpMs')),
        tbtMs: Math.round(pick('tbtMs')),
        cls: Number(pick('cls').toFixed(4)),
        totalBytes: Math.round(pick('totalBytes')),
        jsGzipBytes: js.gzipBytes,
        jsOverFloorBytes: js.gzipBytes - floor.gzipBytes,
        jsBudgetOverFloorBytes: budget,
        lcpElement: runs[0]?.lcpElement ?? null,
        runs,
      });
    }

    const failures: string[] = [];
    for (const result of results) {
      const check = (ok: boolean, text: string) => ok || failures.push(`${result.route}: ${text}`);
      check(result.performance >= targets.performance, `performance ${result.performance} < ${targets.performance}`);
      check(result.accessibility >= targets.accessibility, `accessibility ${result.accessibility} < 100`);
      check(result.bestPractices >= targets.bestPractices, `best practices ${result.bestPractices} < 100`);
      check(result.seo >= targets.seo, `SEO ${result.seo} < 100`);
      check(result.lcpMs <= targets.lcpMs, `LCP ${result.lcpMs} ms > ${targets.lcpMs} ms`);
      check(result.cls <= targets.cls, `CLS ${result.cls} > 0`);
      check(
        result.jsOverFloorBytes <= result.jsBudgetOverFloorBytes,
        `JS ${result.jsOverFloorBytes} B over the floor > ${result.jsBudgetOverFloorBytes} B`,
      );
      if (result.route === '/') check(result.totalBytes < targets.homeTotalBytes, `total ${result.totalBytes} B >= 500 KB`);
    }

    const when = new Date();
    const report = {
      date: when.toISOString(),
      machine: machine(),
      versions,
      runsPerRoute: RUNS,
      floor: { ...floor, lighthouse: floorFigures },
      targets,
      results,
      failures,
    };
    const header = '| route | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | total KB | JS gz KB | JS over floor KB (budget) |';
    const rows = results.map(
      (r) =>
        `| ${r.route} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} | ${(r.totalBytes / KB).toFixed(1)} | ${(r.jsGzipBytes / KB).toFixed(1)} | ${(r.jsOverFloorBytes / KB).toFixed(1)} (${r.jsBudgetOverFloorBytes / KB}) |`,
    );
    const markdown = [
      `# Benchmark ${report.date}`,
      '',
      `Machine: ${report.machine.nproc} CPUs (${report.machine.cpuModel}), ${report.machine.memoryGb} GB, ${report.machine.platform}, Node ${report.machine.node}, ${report.machine.chromium}.`,
      `next ${versions.next}, react ${versions.react}, Lighthouse ${versions.lighthouse} mobile (default throttling), median of ${RUNS} runs per figure.`,
      `JS floor (bare Next page): ${(floor.gzipBytes / KB).toFixed(1)} KB gzipped.`,
      '',
      header,
      '|---|---|---|---|---|---|---|---|---|---|---|',
      `| bare Next page (floor) | ${floorFigures.performance} | | | | ${floorFigures.lcpMs} | ${floorFigures.tbtMs} | | ${(floorFigures.totalBytes / KB).toFixed(1)} | ${(floor.gzipBytes / KB).toFixed(1)} | 0 |`,
      ...rows,
      '',
      failures.length ? `Targets missed:\n${failures.map((failure) => `- ${failure}`).join('\n')}` : 'Every target met.',
      '',
      'LCP elements (first run):',
      ...results.map((r) => `- ${r.route}: \`${(r.lcpElement ?? 'n/a').replace(/`/g, "'").slice(0, 160)}\``),
      '',
    ].join('\n');

    mkdirSync('bench-results', { recursive: true });
    const stamp = report.date.replace(/[:.]/g, '-');
    for (const name of [`bench-${stamp}`, 'latest']) {
      writeFileSync(path.join('bench-results', `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
      writeFileSync(path.join('bench-results', `${name}.md`), markdown);
    }
    console.log(`\n${markdown}`);
    console.log(`Written to bench-results/bench-${stamp}.json and .md`);
  } finally {
    if (chrome) await chrome.kill();
    server.kill('SIGTERM');
    floorServer.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(FLOOR_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
