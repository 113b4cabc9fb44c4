// Makes sure `distDir` holds a production build the server can run: the build `npm run build` makes
// (scripts/site/build.mjs) when there is none, and again when the build was made with other build-time
// settings (server/base/build-settings.mjs) than `env` has. Used by `npm start` and the benchmarks.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { changedBuildSettings, describeChanges } from '../../server/base/build-settings.mjs';
import { buildSiteOrExit } from './build.mjs';

/**
 * @param {string} [distDir]
 * @param {Record<string, string | undefined>} [env]
 */
export function ensureBuild(distDir = '.next', env = process.env) {
  const manifestFile = `${distDir}/csp-manifest.json`;
  const built = existsSync(`${distDir}/BUILD_ID`);
  // A build whose manifest is missing or older than it has settings nobody recorded: built again.
  const recorded = built && existsSync(manifestFile) && statSync(manifestFile).mtimeMs >= statSync(`${distDir}/BUILD_ID`).mtimeMs;
  const changed = recorded ? changedBuildSettings(JSON.parse(readFileSync(manifestFile, 'utf8')).builtWith, env) : [];
  if (!built || !recorded || changed.length > 0) {
    if (!built) console.log(`No production build in ${distDir}: building it first (next build, then the CSP hashes).`);
    else if (!recorded) console.log(`The build in ${distDir} does not record its settings: building it again.`);
    else console.log(`The build in ${distDir} was made with other build-time settings: building it again.\n${describeChanges(changed)}`);
    buildSiteOrExit({ distDir, env: { ...env, NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED ?? '1' } });
  }
}
