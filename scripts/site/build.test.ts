// The one build of the site: next build, the inline stylesheet step, the chunks-after-paint step, then
// the CSP hash step and the service worker step, with the given folder and settings.
import { afterEach, describe, expect, it, vi } from 'vitest';

const spawned = vi.hoisted(() => [] as { args: string[]; env: NodeJS.ProcessEnv }[]);
const statuses = vi.hoisted(() => [] as number[]);
vi.mock('node:child_process', () => ({
  spawnSync: (_command: string, args: string[], options: { env: NodeJS.ProcessEnv }) => {
    spawned.push({ args, env: options.env });
    return { status: statuses.shift() ?? 0 };
  },
}));

const { buildSite, buildSiteOrExit } = await import('./build.mjs');

afterEach(() => {
  spawned.length = 0;
  statuses.length = 0;
  vi.restoreAllMocks();
});

describe('buildSite', () => {
  it('runs next build, the inline stylesheet step, the chunks-after-paint step, the CSP hash step, then the service worker step, all into distDir with the settings given', () => {
    buildSite({ distDir: '.next-elsewhere', env: { SITE_URL: 'https://www.example.com' } });
    expect(spawned.map((step) => step.args.join(' '))).toEqual([
      'node_modules/next/dist/bin/next build',
      'node_modules/tsx/dist/cli.mjs scripts/site/inline-css-once.ts',
      'node_modules/tsx/dist/cli.mjs scripts/site/scripts-after-paint.ts',
      'node_modules/tsx/dist/cli.mjs scripts/site/csp-hashes.ts',
      'node_modules/tsx/dist/cli.mjs scripts/site/service-worker-build.ts',
    ]);
    for (const step of spawned) expect(step.env).toEqual({ SITE_URL: 'https://www.example.com', NEXT_DIST_DIR: '.next-elsewhere' });
  });

  it('without distDir, leaves the folder to the environment (npm run build)', () => {
    buildSite({ env: { NEXT_DIST_DIR: '.next-from-env' } });
    expect(spawned.map((step) => step.env.NEXT_DIST_DIR)).toEqual(Array(5).fill('.next-from-env'));
  });

  it('stops at a failed step and throws with its exit code', () => {
    statuses.push(3);
    expect(() => buildSite({ env: {} })).toThrow(expect.objectContaining({ message: 'next build failed (exit 3)', exitCode: 3 }));
    expect(spawned).toHaveLength(1);
  });

  it('buildSiteOrExit ends the process with the failed step’s exit code', () => {
    statuses.push(0, 0, 0, 2);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    buildSiteOrExit({ env: {} });
    expect(exit).toHaveBeenCalledWith(2);
    expect(console.error).toHaveBeenCalledWith('the CSP hash step failed (exit 2)');
  });
});
