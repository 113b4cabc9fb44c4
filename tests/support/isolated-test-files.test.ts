import { readFileSync } from 'node:fs';
import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TEST_FILES, NEEDS_ISOLATION } from '@/tests/support/isolated-test-files.mjs';

const testFiles = globSync(['**/*.test.ts', '**/*.test.tsx'], {
  exclude: (name) => name === 'node_modules' || name.startsWith('.next') || name === 'e2e' || name === '.git',
}).sort();

describe('unit test files sharing a module registry', () => {
  it('lists every file that replaces modules, stubs globals or sets the environment as isolated', () => {
    const needing = testFiles.filter(
      (file) => file !== 'tests/support/isolated-test-files.test.ts' && NEEDS_ISOLATION.test(readFileSync(file, 'utf8')),
    );
    expect(needing.filter((file) => !ISOLATED_TEST_FILES.includes(file))).toEqual([]);
  });

  it('lists only files that exist', () => {
    expect(ISOLATED_TEST_FILES.filter((file) => !testFiles.includes(file))).toEqual([]);
  });

  it('catches each way of needing isolation, and not reading the environment', () => {
    for (const text of [
      "vi.mock('x')",
      'vi.stubEnv("A", "1")',
      'vi.stubGlobal("fetch", f)',
      'process.env.SITE_URL = "x"',
      "process.env['A'] = '1'",
      'delete process.env.A',
    ])
      expect(NEEDS_ISOLATION.test(text), text).toBe(true);
    for (const text of ['const url = process.env.SITE_URL;', "process.env.A === '1'", 'vi.fn()'])
      expect(NEEDS_ISOLATION.test(text), text).toBe(false);
  });
});
