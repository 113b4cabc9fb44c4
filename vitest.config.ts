import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TEST_FILES } from './tests/support/isolated-test-files.mjs';

const EXCLUDED = ['node_modules/**', '.next/**', 'tests/e2e/**'];

export default defineConfig({
  resolve: {
    // As TypeScript and Next resolve an import without extension: `@/lib/public-env` is the .ts module,
    // not the .mjs one beside it (Vite's own order puts .mjs first).
    extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.jsx', '.json'],
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // `server-only` throws outside React's server condition; unit tests import server code directly.
      'server-only': fileURLToPath(new URL('./tests/support/empty-module.ts', import.meta.url)),
    },
  },
  test: {
    exclude: EXCLUDED,
    environment: 'node',
    setupFiles: ['tests/support/vitest-setup.ts'],
    restoreMocks: true,
    // Several tests draw photos, run commands and wait on real sockets while a production build shares
    // the machine's two CPUs; Vitest's 5 s is a laptop's margin. A test that hangs still fails.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One test file per CPU. Vitest's default leaves one CPU free (for its watch mode's own work), which on
    // a 2-CPU machine runs the files one at a time: measured alone, 406 s in one worker, 233 s in two.
    maxWorkers: availableParallelism(),
    // Files share a module registry per worker, but for those that replace modules or stub the
    // environment (tests/support/isolated-test-files.mjs).
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED_TEST_FILES, isolate: true } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: [...EXCLUDED, ...ISOLATED_TEST_FILES],
          isolate: false,
        },
      },
    ],
  },
});
