// The operator commands as the browser tests run them. In process: through this worker's tool host for
// the command's environment (tests/support/tool-host/host.ts), started on first use and kept, so a
// call costs the command's work and not a new tsx process. Or end to end: `npm run <tool> -- …` in a
// process of its own, as the operator runs it (one test per command does, to keep its entry point covered).
import { execFile, fork, type ChildProcess } from 'node:child_process';
import type { HostAnswer, HostRequest } from './host';
import type { ToolName, ToolResult } from './tools';

export type { ToolName, ToolResult };

const HOST = 'tests/support/tool-host/host.ts';
const CALL_TIMEOUT_MS = 60_000;

type Pending = { resolve: (result: ToolResult) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/** One host process: the commands' main functions under the server's conditions, in `env`. */
class ToolHost {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private lastId = 0;

  constructor(env: Record<string, string>, onExit: () => void) {
    // Its own execArgv, not this worker's: tsx, and the react-server condition for this process only.
    this.child = fork(HOST, [], {
      execArgv: ['--conditions=react-server', '--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // The host says it is ready once it listens: a message sent before could be lost.
    this.ready = new Promise((resolve) => this.child.once('message', () => resolve()));
    this.child.on('message', (received) => {
      const message = received as HostAnswer;
      if ('ready' in message) return;
      const call = this.pending.get(message.id);
      if (!call) return;
      this.settled(message.id);
      call.resolve({ code: message.code, stdout: message.stdout, stderr: message.stderr });
    });
    this.child.once('exit', (code, signal) => {
      onExit();
      this.failAll(new Error(`the tool host ended (${signal ?? code}) before answering; its stderr is above`));
    });
    this.child.on('error', (error) => this.failAll(error));
    // A host with no command to answer keeps no worker alive (its IPC channel is referenced only while
    // one is asked); it ends itself when its parent goes (host.ts).
    this.child.unref();
    this.child.channel?.unref();
  }

  run(tool: ToolName, args: readonly string[]): Promise<ToolResult> {
    const id = ++this.lastId;
    const answered = new Promise<ToolResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settled(id);
        reject(new Error(`${tool} ${args.join(' ')} did not answer within ${CALL_TIMEOUT_MS / 1000} s: the tool host is stopped`));
        this.close();
      }, CALL_TIMEOUT_MS);
      if (this.pending.size === 0) this.child.channel?.ref();
      this.pending.set(id, { resolve, reject, timer });
    });
    void this.ready.then(() => {
      if (this.pending.has(id))
        this.child.send({ id, tool, args: [...args] } satisfies HostRequest, (error) => error && this.failAll(error));
    });
    return answered;
  }

  private settled(id: number) {
    clearTimeout(this.pending.get(id)?.timer);
    this.pending.delete(id);
    if (this.pending.size === 0) this.child.channel?.unref();
  }

  private failAll(error: Error) {
    for (const [id, call] of this.pending) {
      this.settled(id);
      call.reject(error);
    }
  }

  close() {
    this.child.kill();
  }
}

const hosts = new Map<string, ToolHost>();
process.once('exit', closeToolHosts);

/** This worker's host for `env`, started now if it has none. */
function hostFor(env: Record<string, string>): ToolHost {
  const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
  const kept = hosts.get(key);
  if (kept) return kept;
  const host: ToolHost = new ToolHost(env, () => {
    if (hosts.get(key) === host) hosts.delete(key);
  });
  hosts.set(key, host);
  return host;
}

/** `npm run <tool> -- …args` with `env` set, run in process by the tool host: what it printed and its exit code. */
export const runTool = (tool: ToolName, args: readonly string[], env: Record<string, string>): Promise<ToolResult> =>
  hostFor(env).run(tool, args);

/** `npm run <tool> -- …args` with `env` set, in a process of its own as the operator runs it. */
export function runCommand(
  tool: Exclude<ToolName, 'portfolio-link'>,
  args: readonly string[],
  env: Record<string, string>,
): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', tool, '--', ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8', timeout: CALL_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr: error !== null && typeof error.code !== 'number' ? `${stderr}${error.message}\n` : stderr });
      },
    );
  });
}

/** What a command printed on stdout; it throws with what it said on stderr unless the command exited 0. */
export async function printed(result: Promise<ToolResult>): Promise<string> {
  const { code, stdout, stderr } = await result;
  if (code !== 0) throw new Error(`the command exited ${code}:\n${stderr}${stdout}`);
  return stdout;
}

/** Stops every tool host of this process (they also stop by themselves when it ends). */
export function closeToolHosts() {
  for (const host of hosts.values()) host.close();
  hosts.clear();
}
