// Starting a server in a child process, waiting for it and stopping it, with fake scripts in place
// of server.mjs (which needs a build).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSiteServer, startSiteServer } from './site-server';

const work = mkdtempSync(path.join(tmpdir(), 'homecare-site-server-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function script(name: string, source: string) {
  const file = path.join(work, name);
  writeFileSync(file, source);
  return file;
}

/** Answers /ready with 200 and its settings after `delayMs`; on SIGTERM, exits 0 after `drainMs` (or never, with -1). */
const answering = script(
  'answering.mjs',
  `import { createServer } from 'node:http';
const { PORT, HOSTNAME, NEXT_DIST_DIR, EXTRA, DELAY_MS = '0', DRAIN_MS = '0' } = process.env;
console.log('starting with', process.argv.slice(2).join(' ') || 'no flags');
setTimeout(() => {
  createServer((request, response) => {
    response.writeHead(request.url === '/ready' ? 200 : 404).end(JSON.stringify({ HOSTNAME, NEXT_DIST_DIR, EXTRA }));
  }).listen(Number(PORT), HOSTNAME);
}, Number(DELAY_MS));
process.on('SIGTERM', () => {
  console.error('draining');
  if (DRAIN_MS !== '-1') setTimeout(() => process.exit(0), Number(DRAIN_MS));
});
`,
);
const failing = script('failing.mjs', `console.error('The build in .next-x was made with other settings'); process.exit(1);\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('startSiteServer', () => {
  it('starts the script on 127.0.0.1 with the settings and folder given, resolves once the page answers, and stops it', async () => {
    const port = await freePort();
    const server = await startSiteServer({
      script: answering,
      port,
      distDir: '.next-elsewhere',
      env: { EXTRA: 'yes', DELAY_MS: '300' },
      readyPath: '/ready',
      dev: true,
    });
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(`${server.url}/ready`)).json()).toEqual({
      HOSTNAME: '127.0.0.1',
      NEXT_DIST_DIR: '.next-elsewhere',
      EXTRA: 'yes',
    });
    expect(server.output()).toContain('starting with --dev');
    expect(server.running()).toBe(true);
    expect(await server.stop()).toBe(0);
    expect(server.running()).toBe(false);
    expect(server.output()).toContain('draining');
    expect(await server.stop()).toBe(0);
  });

  it('appends the output to a log file', async () => {
    const logFile = path.join(work, 'server.log');
    const server = await startSiteServer({ script: answering, port: await freePort(), readyPath: '/ready', logFile });
    await server.stop();
    expect(readFileSync(logFile, 'utf8')).toMatch(/starting with no flags\n[\s\S]*draining/);
  });

  it('throws with the server’s output when it exits before answering', async () => {
    await expect(startSiteServer({ script: failing, port: await freePort() })).rejects.toThrow(
      /did not start on http:\/\/127\.0\.0\.1:\d+: exited \(1\)[\s\S]*made with other settings/,
    );
  });

  it('gives up after the time-out, leaving no process behind', async () => {
    const port = await freePort();
    await expect(startSiteServer({ script: answering, port, readyPath: '/missing', timeoutMs: 500 })).rejects.toThrow(
      /did not answer within 1 s/,
    );
    await expect(fetch(`http://127.0.0.1:${port}/ready`)).rejects.toThrow();
  });

  it('stop with killAfterMs kills a server that does not exit on the signal', async () => {
    const server = await startSiteServer({ script: answering, port: await freePort(), readyPath: '/ready', env: { DRAIN_MS: '-1' } });
    expect(await server.stop('SIGTERM', { killAfterMs: 300 })).toBeNull();
    expect(server.child.signalCode).toBe('SIGKILL');
  });
});

describe('spawnSiteServer', () => {
  it('does not wait: a server that refuses to start is seen through exited and output', async () => {
    const server = spawnSiteServer({ script: failing, port: await freePort() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('made with other settings');
  });
});
