// `npm start`: serve the production build on PORT, building it first when there is none.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { ensureBuild } from './support/ensure-build.mjs';

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const distDir = process.env.NEXT_DIST_DIR || '.next';

ensureBuild(distDir);

mkdirSync('data', { recursive: true });
const server = spawn(process.execPath, ['server.mjs'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
