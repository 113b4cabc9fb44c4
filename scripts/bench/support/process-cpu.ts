// CPU time another process has spent so far, from Linux's /proc.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** utime + stime + cutime + cstime of `pid` in clock ticks: all its threads, and its children already reaped. */
function ownAndReapedTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2, the command, is in parentheses and may hold spaces: count from after its `)`. Then
  // fields[0] is field 3 (state), and utime, stime, cutime and cstime are fields 14 to 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
}

/** The ids of `pid`'s living children (each thread lists the children it started). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((thread) => {
    try {
      return readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return []; // the thread has ended
    }
  });
}

function treeTicks(pid: number): number {
  let ticks = ownAndReapedTicks(pid);
  for (const child of childrenOf(pid)) {
    try {
      ticks += treeTicks(child);
    } catch {
      // Ended since it was listed: its time joins the parent's cutime once reaped.
    }
  }
  return ticks;
}

/**
 * User + system CPU time in ms of process `pid`, all its threads and all its children (living, or
 * ended and reaped) counted, or undefined where there is no /proc. From /proc/<pid>/stat rather than
 * the nanosecond /proc/<pid>/schedstat, which counts one thread only: a Node server also works on
 * libuv's pool and V8's garbage-collector threads. The kernel keeps utime + stime equal to the exact
 * run time, rounded down to a clock tick (10 ms at CLK_TCK 100), far below a benchmark run's total.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    const ms = (treeTicks(pid) * 1000) / ticksPerSecond;
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}
