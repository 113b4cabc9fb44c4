// `npm run bench:lines [-- --cpu-slowdown 6] [--contact]`: `npm run bench` once under each supported Node
// line (26, then 24; scripts/node/supported-node.mjs), one after the other in one run, each building the
// site and the bare Next page with that Node and measuring both with the same Chromium and Lighthouse;
// then a table of both side by side, every figure against the floor of its own line. With --contact,
// `npm run bench:contact` runs under each line too. Writes bench-results/lines-<time>.json and .md.
// BENCH_RUNS, BENCH_METHODS and BENCH_ROUTES pass through to each bench.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SUPPORTED_LINES, registryNode } from '../node/supported-node.mjs';

const { values } = parseArgs({
  options: {
    'cpu-slowdown': { type: 'string', default: '4' },
    contact: { type: 'boolean', default: false },
  },
});

type Figures = { performance: number; lcpMs: number; tbtMs: number };
type Report = {
  machine: { node: string; nproc: number; cpuModel: string };
  floor: { lighthouse: Record<string, Figures> };
  results: { label: string; byMethod: Record<string, Figures> }[];
  failures: string[];
};

function nodeBin(line: number): string {
  if (Number.parseInt(process.versions.node, 10) === line) return path.dirname(process.execPath);
  return registryNode(line).bin;
}

function runUnder(bin: string, script: string, args: string[]) {
  const result = spawnSync(path.join(bin, 'node'), ['node_modules/tsx/dist/cli.mjs', script, ...args], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  if (result.status !== 0) throw new Error(`${script} under ${bin} failed (${result.status ?? result.signal})`);
}

const over = (value: number, floor: number) => `${Math.round(value)} (${value - floor >= 0 ? '+' : ''}${Math.round(value - floor)})`;

function sideBySide(reports: { line: number; report: Report }[]): string[] {
  const methods = Object.keys(reports[0]!.report.floor.lighthouse);
  const lines: string[] = [];
  for (const method of methods) {
    lines.push(`### ${method}`, '');
    lines.push(
      `| route | ${reports.map(({ report }) => `${report.machine.node}: perf (floor) / LCP ms (over floor) / TBT ms (over floor)`).join(' | ')} |`,
    );
    lines.push(`|---|${reports.map(() => '---').join('|')}|`);
    const floorCells = reports.map(({ report }) => {
      const floor = report.floor.lighthouse[method]!;
      return `${floor.performance} / ${Math.round(floor.lcpMs)} / ${Math.round(floor.tbtMs)}`;
    });
    lines.push(`| bare Next page (floor) | ${floorCells.join(' | ')} |`);
    for (const { label } of reports[0]!.report.results) {
      const cells = reports.map(({ report }) => {
        const floor = report.floor.lighthouse[method]!;
        const figures = report.results.find((row) => row.label === label)?.byMethod[method];
        if (!figures) return 'n/a';
        return `${figures.performance} (${figures.performance - floor.performance >= 0 ? '+' : ''}${figures.performance - floor.performance}) / ${over(figures.lcpMs, floor.lcpMs)} / ${over(figures.tbtMs, floor.tbtMs)}`;
      });
      lines.push(`| ${label} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  for (const { report } of reports) {
    lines.push(`Targets missed under ${report.machine.node}: ${report.failures.length ? '' : 'none'}`);
    lines.push(...report.failures.map((failure) => `- ${failure}`));
  }
  return lines;
}

function main() {
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  mkdirSync('bench-results', { recursive: true });
  const reports: { line: number; report: Report }[] = [];
  for (const line of SUPPORTED_LINES) {
    const bin = nodeBin(line);
    console.log(`\n==== Node ${line} (${bin}): npm run bench -- --cpu-slowdown ${values['cpu-slowdown']}`);
    runUnder(bin, 'scripts/bench/bench.ts', ['--cpu-slowdown', values['cpu-slowdown']]);
    const copy = path.join('bench-results', `lines-${stamp}-node${line}.json`);
    copyFileSync(path.join('bench-results', 'latest.json'), copy);
    copyFileSync(path.join('bench-results', 'latest.md'), copy.replace(/\.json$/, '.md'));
    reports.push({ line, report: JSON.parse(readFileSync(copy, 'utf8')) as Report });
    if (values.contact) {
      console.log(`\n==== Node ${line}: npm run bench:contact`);
      runUnder(bin, 'scripts/bench/contact.ts', []);
    }
  }
  const first = reports[0]!.report.machine;
  const markdown = [
    `# Both Node lines, ${started.toISOString()}`,
    '',
    `Machine: ${first.nproc} CPUs (${first.cpuModel}); CPU slowdown ${values['cpu-slowdown']}x; each line's figures against the floor built and measured under that line.`,
    '',
    ...sideBySide(reports),
    '',
  ].join('\n');
  writeFileSync(path.join('bench-results', `lines-${stamp}.md`), markdown);
  writeFileSync(path.join('bench-results', `lines-${stamp}.json`), `${JSON.stringify(reports, null, 2)}\n`);
  console.log(`\n${markdown}\nWritten to bench-results/lines-${stamp}.md and .json`);
}

main();
