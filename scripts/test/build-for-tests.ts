// Builds the two production sites the browser tests run against, then hashes each one's inline scripts
// for the Content-Security-Policy (scripts/site/csp-hashes.ts):
//   .next-test             the default test build (testBuildEnv)
//   .next-test-production  every integration switched on (productionConfigEnv)
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { productionConfigEnv, testBuildEnv } from '../../tests/e2e/test-env';

for (const [data, buildEnv] of [
  ['data/test', testBuildEnv],
  ['data/test-production', productionConfigEnv],
] as const) {
  rmSync(data, { recursive: true, force: true });
  const env = { ...process.env, ...buildEnv };
  console.log(`== next build into ${buildEnv.NEXT_DIST_DIR}`);
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const hashes = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/site/csp-hashes.ts'], { stdio: 'inherit', env });
  if (hashes.status !== 0) process.exit(hashes.status ?? 1);
}
