// Builds the production sites the browser tests run against (scripts/site/build.mjs: next build, then
// the CSP hashes of each one's inline scripts), each once:
//   test        .next-test             the test build (testBuildEnv): the test-only faults are built in
//   production  .next-test-production  every integration switched on (productionConfigEnv)
// TEST_BUILDS names which (both by default); TEST_LANE gives them folders of their own (tests/e2e/test-env.ts).
// The whole program is type-checked once: by the production-configuration build (NEXT_BUILD_TYPECHECK
// as the caller's environment has it, on by default); the test build never checks it again.
import { rmSync } from 'node:fs';
import { productionConfigEnv, productionDataDir, testBuildEnv, testDataDir } from '../../tests/e2e/test-env';
import { buildSiteOrExit } from '../site/build.mjs';

const builds: Record<string, [dataDir: string, env: Record<string, string>]> = {
  test: [testDataDir, { ...testBuildEnv, NEXT_BUILD_TYPECHECK: 'off' }],
  production: [productionDataDir, productionConfigEnv],
};
const wanted = (process.env.TEST_BUILDS ?? 'test,production').split(',');
const unknown = wanted.filter((name) => !(name in builds));
if (unknown.length > 0)
  throw new Error(`TEST_BUILDS names no build called ${unknown.join(', ')} (there are ${Object.keys(builds).join(', ')})`);

for (const name of wanted) {
  const [data, buildEnv] = builds[name]!;
  rmSync(data, { recursive: true, force: true });
  console.log(`== next build into ${buildEnv.NEXT_DIST_DIR}`);
  buildSiteOrExit({ distDir: buildEnv.NEXT_DIST_DIR, env: { ...process.env, ...buildEnv } });
}
