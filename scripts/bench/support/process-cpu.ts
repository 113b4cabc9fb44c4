// CPU time another process has spent so far, from Linux's /proc.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/**
 * User + system CPU time of process `pid` in ms, all its threads counted (the exited ones too), or
 * undefined where there is no /proc. From /proc/<pid>/stat rather than the nanosecond
 * /proc/<pid>/schedstat, which counts the main thread only: a Node server also works on libuv's pool
 * and V8's garbage-collector threads. The kernel keeps utime + stime equal to the exact run time,
 * rounded down to a clock tick (10 ms at CLK_TCK 100), far below a benchmark run's total.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command, is in parentheses and may hold spaces: count from after its `)`. Then
    // fields[0] is field 3 (state), and utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}
