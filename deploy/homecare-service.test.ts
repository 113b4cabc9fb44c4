// The systemd unit in deploy/: systemd's own checker finds nothing to say about it, and it asks for
// what the site needs to stop cleanly and nothing more to write to.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '@/server/edge/server-limits.mjs';

const unit = readFileSync(path.join(__dirname, 'homecare.service'), 'utf8');
const settings = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1]!);
const systemdAnalyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((candidate) => existsSync(candidate));

describe('deploy/homecare.service', () => {
  it.skipIf(!systemdAnalyze)('passes `systemd-analyze verify` with no warning at all', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'homecare-unit-'));
    try {
      // The unit names /usr/bin/node; verify checks that ExecStart exists, so point it at this Node.
      const file = path.join(folder, 'homecare.service');
      writeFileSync(file, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
      const result = spawnSync(systemdAnalyze!, ['verify', file], { encoding: 'utf8', cwd: folder });
      expect(result.stderr.trim()).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('runs server.mjs as its own user, with its settings from an EnvironmentFile, restarting on failure', () => {
    expect(settings('User')).toEqual(['homecare']);
    expect(settings('ExecStart')).toEqual(['/usr/bin/node server.mjs']);
    expect(settings('EnvironmentFile')).toEqual(['/etc/homecare/site.env']);
    expect(settings('Restart')).toEqual(['on-failure']);
  });

  it('stops with SIGTERM and waits longer than the graceful shutdown before SIGKILL', () => {
    expect(settings('KillSignal')).toEqual(['SIGTERM']);
    const [stop] = settings('TimeoutStopSec');
    expect(Number(/^(\d+)s$/.exec(stop ?? '')?.[1]) * 1000).toBeGreaterThanOrEqual(2 * SHUTDOWN_GRACE_MS);
  });

  it('can write only to the state folder and the image cache', () => {
    expect(settings('ProtectSystem')).toEqual(['strict']);
    expect(settings('ReadWritePaths')).toEqual(['/srv/homecare/data /srv/homecare/.next/cache']);
    for (const hardening of ['NoNewPrivileges', 'ProtectHome', 'PrivateTmp', 'PrivateDevices', 'RestrictSUIDSGID'])
      expect(settings(hardening), hardening).toEqual(['yes']);
    expect(settings('CapabilityBoundingSet')).toEqual(['']);
  });
});
