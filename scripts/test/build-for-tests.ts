// Builds the two production sites the browser tests run against (scripts/site/build.mjs: next build,
// then the CSP hashes of each one's inline scripts):
//   .next-test             the default test build (testBuildEnv)
//   .next-test-production  every integration switched on (productionConfigEnv)
import { rmSync } from 'node:fs';
import { productionConfigEnv, testBuildEnv } from '../../tests/e2e/test-env';
import { buildSiteOrExit } from '../site/build.mjs';

for (const [data, buildEnv] of [
  ['data/test', testBuildEnv],
  ['data/test-production', productionConfigEnv],
] as const) {
  rmSync(data, { recursive: true, force: true });
  console.log(`== next build into ${buildEnv.NEXT_DIST_DIR}`);
  buildSiteOrExit({ distDir: buildEnv.NEXT_DIST_DIR, env: { ...process.env, ...buildEnv } });
}
