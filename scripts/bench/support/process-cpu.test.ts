// Reading a process's CPU time from /proc, as bench:contact does for the site's server.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { processCpuMs } from './process-cpu';

/** Whole-process CPU time in ms, as a Node process counts it itself (all its threads). */
const ownCpu = 'const own = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };';

/** Burns 300 ms of CPU in a worker thread, then prints its own count and idles until its stdin closes. */
const burner = `${ownCpu}
new (require('node:worker_threads').Worker)('${ownCpu} while (own() < 300);', { eval: true })
  .on('exit', () => { console.log(own()); process.stdin.resume().on('end', () => process.exit()); });`;

/**
 * Starts a burner child and prints "<own> <child's>"; on any input line, stops the child, waits for
 * it to end and prints its own count again. When its stdin closes, it exits, and so does the child.
 */
const parent = `${ownCpu}
const child = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(burner)}], { stdio: ['pipe', 'pipe', 'inherit'] });
child.stdout.once('data', (childCpu) => console.log(own(), Number(childCpu)));
process.stdin.once('data', () => { child.once('exit', () => console.log(own())); child.kill(); });
process.stdin.on('end', () => process.exit());`;

describe.runIf(existsSync('/proc/self/stat'))('processCpuMs', () => {
  it('counts every thread of the process and every child, running or ended, as they count themselves', async () => {
    const started = spawn(process.execPath, ['-e', parent], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: started.stdout })[Symbol.asyncIterator]();
    const nextLine = async () => ((await lines.next()).value as string).split(' ').map(Number);
    try {
      const [parentCpu = 0, childCpu = 0] = await nextLine();
      expect(childCpu).toBeGreaterThanOrEqual(300);
      const whileRunning = processCpuMs(started.pid!)!;
      // Each reading rounds down to a clock tick, idle processes may use a little more in between, and
      // the kernel's split of a reaped child's ticks can land a few ticks short on a loaded machine
      // (310 ms read against 341.6 ms counted once in CI): 60 ms either side, a fifth of the child's.
      expect(whileRunning).toBeGreaterThan(parentCpu + childCpu - 60);
      expect(whileRunning).toBeLessThan(parentCpu + childCpu + 60);

      started.stdin.write('stop\n');
      const [parentCpuAfter = 0] = await nextLine();
      const afterChildEnded = processCpuMs(started.pid!)!;
      expect(afterChildEnded).toBeGreaterThan(parentCpuAfter + childCpu - 60);
      expect(afterChildEnded).toBeLessThan(parentCpuAfter + childCpu + 60);
    } finally {
      started.kill();
    }
  });

  it('is undefined for a process that does not exist', () => {
    expect(processCpuMs(2 ** 22 + 1)).toBeUndefined();
  });
});
