import { describe, expect, it } from 'vitest';
import { failuresIn, summariesOf } from './test-counts.mjs';

describe('the test counts read from the phase logs', () => {
  it('reads Vitest’s Tests line, coloured as Vitest prints it', () => {
    const log =
      '\u001b[2m Test Files \u001b[22m 150 passed (150)\n\u001b[2m      Tests \u001b[22m 3 failed | 1251 passed | 1 skipped (1255)\n';
    expect(summariesOf(log)).toEqual([{ runner: 'unit', counts: { failed: 3, passed: 1251, skipped: 1 } }]);
  });

  it('reads Playwright’s closing lines as one summary, and ignores the lines of each test', () => {
    const log = [
      '  ✓  12 [chromium] › tests/e2e/pages.spec.ts:9:3 › / answers 200 (1.2s)',
      '  2 failed',
      '    [chromium] › tests/e2e/claim-links.spec.ts:146:5 › with JavaScript › a link',
      '  1 flaky',
      '  1 skipped',
      '  465 passed (17.4m)',
      '',
    ].join('\n');
    expect(summariesOf(log)).toEqual([{ runner: 'browser', counts: { failed: 2, flaky: 1, skipped: 1, passed: 465 } }]);
  });

  it('keeps two Playwright runs in one log apart', () => {
    expect(summariesOf('  3 passed (2.0s)\nSmoke set\n  21 passed (1.0m)\n')).toEqual([
      { runner: 'browser', counts: { passed: 3 } },
      { runner: 'browser', counts: { passed: 21 } },
    ]);
  });

  it('names each test Playwright lists as failed or flaky, and each test Vitest marks FAIL', () => {
    const log = [
      '  ✘  71 [chromium] › tests/e2e/a.spec.ts:3:1 › first (2.0s)',
      '  2 failed',
      '    [chromium] › tests/e2e/a.spec.ts:3:1 › first ───────',
      '    [production-config] › tests/e2e/b.spec.ts:9:5 › second ──',
      '  1 flaky',
      '    [chromium] › tests/e2e/c.spec.ts:1:1 › third ───',
      '  465 passed (17.4m)',
      '\u001b[31m FAIL \u001b[39m server/x.test.ts > the ledger > keeps one row',
      '',
    ].join('\n');
    expect(failuresIn(log)).toEqual([
      '[chromium] › tests/e2e/a.spec.ts:3:1 › first ───────',
      '[production-config] › tests/e2e/b.spec.ts:9:5 › second ──',
      '[chromium] › tests/e2e/c.spec.ts:1:1 › third ───',
      'FAIL  server/x.test.ts > the ledger > keeps one row',
    ]);
  });
});
