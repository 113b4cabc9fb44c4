// The production build: `next build`; then the stylesheet's copies in the flight data emptied
// (scripts/site/inline-css-once.ts); then Next's chunks moved after the first paint
// (scripts/site/scripts-after-paint.ts); then the CSP hash step (scripts/site/csp-hashes.ts), which hashes
// the prerendered pages' inline scripts and records the build-time settings the build was made with;
// then the service worker, with what it keeps offline (scripts/site/service-worker-build.ts).
// One function for every build of the site: `npm run build` (this file run directly),
// `npm start` (ensure-build.mjs, when there is no usable build), the test build
// (scripts/test/build-for-tests.ts) and the benchmarks. Plain JavaScript so `npm start` needs no compile
// step of its own; the two steps after `next build` run under tsx in child processes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A build step that failed; `exitCode` is the step's own. */
class BuildError extends Error {
  /** @param {string} message @param {number} exitCode */
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * Builds the site into `distDir` (NEXT_DIST_DIR) with `env` (the build-time settings among it are
 * inlined into the bundle); without `distDir`, where `env` or the .env files say (`.next` by default).
 * The steps print to this process's output. Throws a BuildError when a step fails.
 * @param {{ distDir?: string, env?: Record<string, string | undefined> }} [options]
 */
export function buildSite({ distDir, env = process.env } = {}) {
  const buildEnv = /** @type {NodeJS.ProcessEnv} */ (/** @type {unknown} */ (distDir ? { ...env, NEXT_DIST_DIR: distDir } : env));
  for (const [label, args] of /** @type {const} */ ([
    ['next build', ['node_modules/next/dist/bin/next', 'build']],
    ['the inline stylesheet step', ['node_modules/tsx/dist/cli.mjs', 'scripts/site/inline-css-once.ts']],
    ['the chunks-after-paint step', ['node_modules/tsx/dist/cli.mjs', 'scripts/site/scripts-after-paint.ts']],
    ['the CSP hash step', ['node_modules/tsx/dist/cli.mjs', 'scripts/site/csp-hashes.ts']],
    ['the service worker step', ['node_modules/tsx/dist/cli.mjs', 'scripts/site/service-worker-build.ts']],
  ])) {
    const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: buildEnv });
    if (result.status !== 0) throw new BuildError(`${label} failed (exit ${result.status ?? result.signal})`, result.status ?? 1);
  }
}

/**
 * buildSite, ending this process with the failed step's exit code (the step's own output says why).
 * @param {{ distDir?: string, env?: Record<string, string | undefined> }} [options]
 */
export function buildSiteOrExit(options) {
  try {
    buildSite(options);
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    console.error(error.message);
    process.exit(error.exitCode);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildSiteOrExit();
