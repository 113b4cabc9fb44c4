// `npm start`: serve the production build on PORT, building it first when there is none.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const distDir = process.env.NEXT_DIST_DIR || '.next';

if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.log('No production build found: running `next build` first.');
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The server's Content-Security-Policy needs the build's inline-script hashes (also after a bare `next build`).
if (!existsSync(`${distDir}/csp-manifest.json`) || statSync(`${distDir}/csp-manifest.json`).mtimeMs < statSync(`${distDir}/BUILD_ID`).mtimeMs) {
  const hashes = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/csp-hashes.ts'], { stdio: 'inherit' });
  if (hashes.status !== 0) process.exit(hashes.status ?? 1);
}

mkdirSync('data', { recursive: true });
const server = spawn(process.execPath, ['server.mjs'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
