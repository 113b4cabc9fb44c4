// `npm start`: serve the production build on PORT, building it first when there is none or when it was
// made with other build-time settings (SITE_URL, NEXT_PUBLIC_*) than this environment has.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import nextEnv from '@next/env';
import { config } from '../../server/base/config.mjs';
import { ensureBuild } from './ensure-build.mjs';

function configOrExit() {
  try {
    return config();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
// The .env files, as `next build` and server.mjs read them, so all three compare the same values.
nextEnv.loadEnvConfig(process.cwd());
const { distDir } = configOrExit();

ensureBuild(distDir);

mkdirSync('data', { recursive: true });
const server = spawn(process.execPath, ['server.mjs'], { stdio: 'inherit' });
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
