import { spawn, type ChildProcess } from 'node:child_process';

const TSX = ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server'];

/** Runs a TypeScript file of this repository in its own Node process (tsx, server conditions). */
export function spawnTs(file: string, args: string[] = [], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [...TSX, file, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
}

/** Resolves with the first stdout line that matches. */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((candidate) => pattern.test(candidate));
      if (line !== undefined) {
        child.stdout?.off('data', onData);
        resolve(line);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before printing ${pattern}: ${buffered}`)));
  });
}

/** Every stdout line of a process that runs to its end, and its exit code. */
export function runToEnd(child: ChildProcess): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, lines: out.split('\n').filter(Boolean), stderr: err }));
  });
}
