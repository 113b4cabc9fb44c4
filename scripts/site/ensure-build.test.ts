// `npm start` builds again when the build it would serve was made with other build-time settings.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSettingsOf } from '@/server/base/build-settings.mjs';

const spawned = vi.hoisted(() => [] as string[][]);
vi.mock('node:child_process', () => ({
  spawnSync: (_command: string, args: string[]) => {
    spawned.push(args);
    return { status: 0 };
  },
}));

const { ensureBuild } = await import('./ensure-build.mjs');

let distDir: string;
const env = { SITE_URL: 'https://www.example.com', NEXT_PUBLIC_CRM_URL: 'https://crm.example.com' };

beforeEach(() => {
  distDir = mkdtempSync(path.join(tmpdir(), 'homecare-ensure-build-'));
  spawned.length = 0;
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => rmSync(distDir, { recursive: true, force: true }));

function build(builtWith: Record<string, string> | undefined, manifestAgeSeconds = 0) {
  writeFileSync(path.join(distDir, 'BUILD_ID'), 'test');
  const manifest = path.join(distDir, 'csp-manifest.json');
  writeFileSync(manifest, JSON.stringify({ version: 1, pages: {}, ...(builtWith ? { builtWith } : {}) }));
  if (manifestAgeSeconds) {
    const old = new Date(Date.now() - manifestAgeSeconds * 1000);
    utimesSync(manifest, old, old);
  }
}
const steps = () => spawned.map((args) => args.join(' '));
const rebuild = [
  'node_modules/next/dist/bin/next build',
  'node_modules/tsx/dist/cli.mjs scripts/site/inline-css-once.ts',
  'node_modules/tsx/dist/cli.mjs scripts/site/scripts-after-paint.ts',
  'node_modules/tsx/dist/cli.mjs scripts/site/csp-hashes.ts',
  'node_modules/tsx/dist/cli.mjs scripts/site/service-worker-build.ts',
];

describe('ensureBuild', () => {
  it('serves a build made with the same settings as it is', () => {
    build(buildSettingsOf(env));
    ensureBuild(distDir, env);
    expect(steps()).toEqual([]);
  });

  it('builds again when SITE_URL or a NEXT_PUBLIC_* value differs, naming it', () => {
    build(buildSettingsOf({}));
    ensureBuild(distDir, env);
    expect(steps()).toEqual(rebuild);
    expect(vi.mocked(console.log).mock.calls.join('\n')).toContain('SITE_URL: built with (empty), now https://www.example.com');
  });

  it('builds when there is no build, and when the build records no settings or is newer than its record', () => {
    ensureBuild(distDir, env);
    expect(steps()).toEqual(rebuild);
    spawned.length = 0;
    build(undefined);
    ensureBuild(distDir, env);
    expect(steps()).toEqual(rebuild);
    spawned.length = 0;
    build(buildSettingsOf(env), 60);
    ensureBuild(distDir, env);
    expect(steps()).toEqual(rebuild);
  });
});
