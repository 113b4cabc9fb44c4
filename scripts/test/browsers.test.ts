import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The test command's browser floors (scripts/test/browsers.sh, read by ensure-apt-tools.sh), run in bash.
function bash(script: string, env: Record<string, string> = {}) {
  const result = spawnSync('bash', ['-c', `set -euo pipefail; source scripts/test/browsers.sh; ${script}`], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

/** A program outside any Debian package that prints `versionLine` for --version. */
function fakeBrowser(versionLine: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'fake-browser-')), 'browser');
  writeFileSync(file, `#!/bin/sh\n${versionLine ? `echo "${versionLine}"` : 'exit 0'}\n`);
  chmodSync(file, 0o755);
  return file;
}

const minimum = (name: string) => bash(`echo "$MIN_${name}"`).stdout;

describe('the oldest browsers the suite is meant for', () => {
  it('are the ones docs/testing.md names', () => {
    expect(readFileSync('docs/testing.md', 'utf8')).toContain(
      `**Chromium ${minimum('CHROMIUM')}, Firefox ESR ${minimum('FIREFOX')}, WebKitGTK ${minimum('WEBKIT')}**`,
    );
  });

  it.each([
    ['140.12.0esr-1~deb12u1', '140', false],
    ['153.7.0esr-1~deb12u1', '140', false],
    ['139.0.1esr-1~deb12u1', '140', true],
    ['1:139.0esr-1', '140', true],
    ['150~b1-1', '150', true],
    ['150.0.7871.100-1~deb12u1', '150', false],
    ['2.48.7-1~deb12u1', '2.50', true],
    ['2.50.6-1~deb12u2', '2.50', false],
    ['128.0esr', '140', true],
    ['', '140', false],
  ])('%s is older than %s: %s', (version, floor, older) => {
    expect(bash(`older_than "${version}" "${floor}"`).status === 0).toBe(older);
  });

  it("takes a browser's version from its Debian package, or from its own --version when it has none", () => {
    expect(bash('installed_version /usr/bin/dpkg').stdout).toMatch(/^dpkg \d/);
    expect(bash(`installed_version ${fakeBrowser('Mozilla Firefox 128.0esr')}`).stdout).toBe('- 128.0esr');
    expect(bash(`installed_version ${fakeBrowser('')}`).stdout).toBe('-');
  });
});

describe('the test command with a browser apt cannot upgrade', () => {
  const current = {
    CHROMIUM_HEADLESS_SHELL_PATH: fakeBrowser('Chromium 156.0.8078.108'),
    WEBKIT_DRIVER_PATH: fakeBrowser('WebKitWebDriver 2.50.6'),
  };

  function ensure(env: Record<string, string>) {
    const result = spawnSync('bash', ['scripts/test/ensure-apt-tools.sh'], {
      encoding: 'utf8',
      env: { ...process.env, ...current, ...env },
    });
    return { status: result.status, stderr: result.stderr.trim() };
  }

  it('stops at once with one line naming it, its version and what to do when it is too old', () => {
    const firefox = fakeBrowser('Mozilla Firefox 128.0esr');
    expect(ensure({ FIREFOX_PATH: firefox })).toEqual({
      status: 1,
      stderr: `${firefox} is Firefox ESR 128.0esr (not from apt), older than the Firefox ESR ${minimum('FIREFOX')} the browser tests need: set FIREFOX_PATH to a newer one, or unset it to use Debian's.`,
    });
  });

  it('stops when nobody can tell its version', () => {
    const firefox = fakeBrowser('');
    expect(ensure({ FIREFOX_PATH: firefox })).toEqual({
      status: 1,
      stderr: `${firefox} is not from a Debian package and gives no --version: the browser tests need Firefox ESR ${minimum('FIREFOX')} or later (FIREFOX_PATH names it).`,
    });
  });
});
