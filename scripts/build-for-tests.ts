// Builds the production site the browser tests run against, into .next-test, then hashes its inline
// scripts for the Content-Security-Policy (scripts/csp-hashes.ts).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { testBuildEnv } from '../tests/e2e/test-env';

rmSync('data/test', { recursive: true, force: true });
const env = { ...process.env, ...testBuildEnv };
const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
if (build.status !== 0) process.exit(build.status ?? 1);
const hashes = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/csp-hashes.ts'], { stdio: 'inherit', env });
process.exit(hashes.status ?? 1);
