// Reads the test command's phase logs (scripts/test/phases.sh) and prints how many unit and browser tests
// each phase ran and how they ended, the name of every test that failed or passed only on a retry (CI shows
// only the end of the output), then the totals as one plain line: "N passed, N failed".
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

/**
 * The tests a log names as failed: Vitest's "FAIL  file > test" lines and the tests Playwright's list
 * reporter names under its closing "N failed" and "N flaky" lines.
 * @param {string} log
 * @returns {string[]}
 */
export function failuresIn(log) {
  /** @type {string[]} */
  const failures = [];
  let underPlaywrightList = false;
  for (const line of stripVTControlCharacters(log).split('\n')) {
    const trimmed = line.trim();
    if (/^FAIL\s/.test(trimmed) && trimmed.includes(' > ')) {
      if (!failures.includes(trimmed)) failures.push(trimmed);
      continue;
    }
    if (/^ {2}\d+ (?:failed|flaky)$/.test(line)) {
      underPlaywrightList = true;
      continue;
    }
    if (underPlaywrightList && line.startsWith('    ') && trimmed.startsWith('[')) {
      failures.push(trimmed);
      continue;
    }
    underPlaywrightList = false;
  }
  return failures;
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
    for (const failure of failuresIn(readFileSync(path.join(folder, file), 'utf8'))) {
      console.log(`${file.replace(/\.log$/, '')}: FAILED ${failure}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
}
