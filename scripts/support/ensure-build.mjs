// Makes sure `distDir` holds a production build the server can run: `next build` when there is none,
// then the CSP hash step (scripts/csp-hashes.ts) when its manifest is missing or older than the build,
// which is what `npm run build` does. Used by `npm start` and `npm run bench:contact`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function ensureBuild(distDir = '.next', env = process.env) {
  const buildEnv = { ...env, NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED ?? '1', NEXT_DIST_DIR: distDir };
  if (!existsSync(`${distDir}/BUILD_ID`)) {
    console.log(`No production build in ${distDir}: building it first (next build, then the CSP hashes).`);
    const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env: buildEnv });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const manifest = `${distDir}/csp-manifest.json`;
  if (!existsSync(manifest) || statSync(manifest).mtimeMs < statSync(`${distDir}/BUILD_ID`).mtimeMs) {
    const hashes = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/csp-hashes.ts'], {
      stdio: 'inherit',
      env: buildEnv,
    });
    if (hashes.status !== 0) process.exit(hashes.status ?? 1);
  }
}
