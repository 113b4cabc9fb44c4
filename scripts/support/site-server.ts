// The site's own server (server.mjs) in a child process, for the benchmarks and the browser tests that
// start one of their own: started on 127.0.0.1 with the given settings, waited for until it answers,
// stopped with a signal. No server-only imports, so plain tsx and Playwright run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';

type SiteServerOptions = {
  port: number;
  /** NEXT_DIST_DIR: the build to serve (otherwise whatever `env` says, `.next` by default). */
  distDir?: string;
  /** Settings over this process's environment (a value of undefined leaves the inherited one). */
  env?: Record<string, string | undefined>;
  /** `next dev` behind the same server (`node server.mjs --dev`) instead of a build. */
  dev?: boolean;
  /** The page that must answer 2xx before the server counts as up; `/` by default. */
  readyPath?: string;
  /** How long to wait for it; 60 s by default. */
  timeoutMs?: number;
  /** A file the server's stdout and stderr are appended to. */
  logFile?: string;
  /** Passes the server's stderr through to this process's. */
  showErrors?: boolean;
  /** The script to run; server.mjs unless a test says otherwise. */
  script?: string;
};

export type SiteServer = {
  child: ChildProcess;
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** True until the process has exited. */
  running: () => boolean;
  /** The last 64 KB the server wrote to stdout and stderr. */
  output: () => string;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited and its output is read. */
  exited: Promise<number | null>;
  /**
   * Sends `signal` (SIGTERM by default) and resolves with the exit code once the process has exited;
   * with `killAfterMs`, sends SIGKILL if it is still running then. Stopping a stopped server resolves at once.
   */
  stop: (signal?: NodeJS.Signals, options?: { killAfterMs?: number }) => Promise<number | null>;
};

const OUTPUT_KEPT = 64 * 1024;

/** Starts the server without waiting for it (a test that expects it to refuse to start awaits `exited`). */
export function spawnSiteServer(options: SiteServerOptions): SiteServer {
  const { port } = options;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  Object.assign(env, { PORT: String(port), HOSTNAME: '127.0.0.1' }, options.distDir ? { NEXT_DIST_DIR: options.distDir } : {});
  const child = spawn(process.execPath, [options.script ?? 'server.mjs', ...(options.dev ? ['--dev'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  if (options.showErrors) child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  if (options.logFile) {
    const log = createWriteStream(options.logFile, { flags: 'a' });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  // 'close', not 'exit': by then everything the process wrote has been read into output().
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    running,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM', { killAfterMs } = {}) {
      if (!running()) return exited;
      child.kill(signal);
      const killer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      try {
        return await exited;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}

/**
 * Polls `url` until it answers 2xx. With `child`, gives up as soon as that process exits; after
 * `timeoutMs` (60 s by default), throws.
 */
export async function waitUntilAnswering(
  url: string,
  { child, timeoutMs = 60_000, intervalMs = 250 }: { child?: ChildProcess; timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    // Each try may take what is left of the time (a development server compiles the page first).
    const ok = await fetch(url, { signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())) })
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Starts the server and resolves once `readyPath` answers; if it never does, stops it and throws with its output. */
export async function startSiteServer(options: SiteServerOptions): Promise<SiteServer> {
  const server = spawnSiteServer(options);
  try {
    await waitUntilAnswering(`${server.url}${options.readyPath ?? '/'}`, { child: server.child, timeoutMs: options.timeoutMs });
  } catch (error) {
    await server.stop('SIGKILL');
    const where = options.logFile ? ` (see ${options.logFile})` : '';
    throw new Error(`The site did not start on ${server.url}${where}: ${(error as Error).message}\n${server.output()}`, { cause: error });
  }
  return server;
}
