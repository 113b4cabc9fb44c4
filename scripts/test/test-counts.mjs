// Reads the test command's phase logs (scripts/test/phases.sh) and prints how many unit and browser tests
// each phase ran and how they ended, then the totals as one plain line: "N passed, N failed".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const OUTCOMES = ['passed', 'failed', 'flaky', 'skipped', 'interrupted', 'did not run', 'todo'];

/**
 * The counts a line of a runner's summary gives ("1254 passed | 1 skipped (1255)", "464 passed (15.2m)").
 * @param {string} text
 * @returns {Record<string, number>}
 */
function countsIn(text) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const part of text.split('|')) {
    const [number, ...words] = part.trim().split(' ');
    const outcome = OUTCOMES.find((word) => words.join(' ').startsWith(word));
    if (outcome && /^\d+$/.test(number ?? '')) counts[outcome] = Number(number);
  }
  return counts;
}

/**
 * Vitest's "Tests" line, and Playwright's list reporter's closing lines ("  464 passed (15.2m)", "  2 flaky").
 * @param {string} log
 * @returns {{ runner: 'unit' | 'browser', counts: Record<string, number> }[]}
 */
export function summariesOf(log) {
  /** @type {{ runner: 'unit' | 'browser', counts: Record<string, number> }[]} */
  const summaries = [];
  for (const line of stripVTControlCharacters(log).split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('Tests ')) {
      summaries.push({ runner: 'unit', counts: countsIn(trimmed.slice('Tests '.length)) });
      continue;
    }
    if (!line.startsWith('  ') || line.startsWith('   ')) continue;
    const counts = countsIn(trimmed);
    const [outcome] = Object.keys(counts);
    if (outcome === undefined || Object.keys(counts).length !== 1) continue;
    const last = summaries.at(-1);
    if (last?.runner === 'browser' && !(outcome in last.counts)) last.counts[outcome] = counts[outcome] ?? 0;
    else summaries.push({ runner: 'browser', counts });
  }
  return summaries;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const folder = process.argv[2] ?? 'test-phases';
  let passed = 0;
  let failed = 0;
  console.log('== Tests run');
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.log'))
    .sort()) {
    for (const { runner, counts } of summariesOf(readFileSync(path.join(folder, file), 'utf8'))) {
      const words = Object.entries(counts).map(([outcome, n]) => `${n} ${outcome}`);
      console.log(`${file.replace(/\.log$/, '')}: ${runner} tests, ${words.join(', ')}`);
      passed += counts.passed ?? 0;
      failed += (counts.failed ?? 0) + (counts.flaky ?? 0) + (counts.interrupted ?? 0);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
}
