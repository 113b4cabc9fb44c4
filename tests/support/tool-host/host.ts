// A tool host: one Node process with the server's conditions (react-server, which `server-only` needs)
// that runs the operator commands' main functions one after another, as its parent asks over IPC
// (tests/support/tool-host/client.ts). A test then runs `npm run claims -- …` without starting tsx for
// each call. Its environment is the one the commands read (DATABASE_URL, SITE_URL…) and keep once read:
// one host per environment. It ends when its parent goes.
import { inspect } from 'node:util';
import { processIo } from '@/scripts/support/command-io';
import { isToolName, toolMain, type ToolResult } from './tools';

export type HostRequest = { id: number; tool: string; args: string[] };
export type HostAnswer = { ready: true } | ({ id: number } & ToolResult);

type Stream = 'stdout' | 'stderr';

/** Runs `task` with what is written to stdout and stderr meanwhile kept rather than printed. */
async function keepingOutput(task: () => Promise<number>): Promise<ToolResult> {
  const kept: Record<Stream, string> = { stdout: '', stderr: '' };
  const streams = { stdout: process.stdout, stderr: process.stderr };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const name of ['stdout', 'stderr'] as const)
    streams[name].write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      kept[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const callback = rest.find((each) => typeof each === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof process.stdout.write;
  let code: number;
  try {
    code = await task();
  } catch (error) {
    // As Node reports an error a command throws: its stack on stderr, exit code 1.
    kept.stderr += `${inspect(error)}\n`;
    code = 1;
  } finally {
    streams.stdout.write = writes.stdout;
    streams.stderr.write = writes.stderr;
  }
  return { code, ...kept };
}

async function answer({ tool, args }: HostRequest): Promise<ToolResult> {
  if (!isToolName(tool)) return { code: 2, stdout: '', stderr: `The tool host has no command ${tool}.\n` };
  return keepingOutput(async () => (await toolMain(tool))(args, processIo));
}

const send = (message: HostAnswer) => {
  if (process.connected) process.send!(message);
};

// One command at a time: each has the process's streams to itself.
let queue = Promise.resolve();
process.on('message', (message) => {
  const request = message as HostRequest;
  queue = queue.then(async () => send({ id: request.id, ...(await answer(request)) }));
});
process.on('disconnect', () => process.exit(0));
send({ ready: true });
