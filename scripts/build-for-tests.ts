// Builds the production site the browser tests run against, into .next-test.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { testBuildEnv } from '../tests/e2e/test-env';

rmSync('data/test', { recursive: true, force: true });
const result = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ...testBuildEnv },
});
process.exit(result.status ?? 1);
