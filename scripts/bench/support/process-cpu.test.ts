// Reading a process's CPU time from /proc, as bench:contact does for the site's server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processCpuMs } from './process-cpu';

/** Burns CPU in a worker thread until the whole process has used 400 ms, prints the process's own count, then idles. */
const burner = `
const { Worker } = require('node:worker_threads');
const total = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
new Worker('const t = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (t() < 400);', { eval: true })
  .on('exit', () => { console.log(total()); setInterval(() => {}, 1000); });
`;

describe.runIf(existsSync('/proc/self/stat'))('processCpuMs', () => {
  it('counts the CPU time of every thread of the process, as the process itself counts it', async () => {
    const child = spawn(process.execPath, ['-e', burner], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const ownCount = Number(line.toString());
      const read = processCpuMs(child.pid!);
      expect(ownCount).toBeGreaterThanOrEqual(400);
      // Rounded down to a clock tick, and the idle process may use a little more in between.
      expect(read).toBeGreaterThan(ownCount - 20);
      expect(read).toBeLessThan(ownCount + 50);
    } finally {
      child.kill();
    }
  });

  it('is undefined for a process that does not exist', () => {
    expect(processCpuMs(2 ** 22 + 1)).toBeUndefined();
  });
});
