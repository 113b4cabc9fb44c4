import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { applyServerLimits, isMethodNotAllowed, SERVER_LIMITS, serverOptions, type ServerLimits } from '@/server/server-limits.mjs';

// The limits as server.mjs applies them, on a plain Node server, with short times so the test is quick.
const quick: ServerLimits = {
  ...SERVER_LIMITS,
  headersTimeoutMs: 600,
  requestTimeoutMs: 1_200,
  connectionsCheckingIntervalMs: 100,
  keepAliveTimeoutMs: 300,
  socketIdleTimeoutMs: 2_000,
  maxConnections: 3,
};

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

async function start(limits: ServerLimits): Promise<number> {
  const created = applyServerLimits(
    createServer(serverOptions(limits), (request, response) => {
      request.resume();
      request.on('end', () => response.end('ok'));
    }),
    limits,
  );
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return (created.address() as AddressInfo).port;
}

/** Opens a socket; resolves when the server closes it, with what it answered and how long it took. */
function slowClient(port: number, write: (socket: Socket) => void): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const started = Date.now();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
    socket.on('connect', () => write(socket));
  });
}

describe('server time-outs and limits', () => {
  it('has the documented values', () => {
    expect(SERVER_LIMITS).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 512,
    });
    const options = serverOptions();
    expect(options).toMatchObject({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000 });
  });

  it('closes a client that sends its body a byte at a time once the request time-out passes (408)', async () => {
    const port = await start(quick);
    const result = await slowClient(port, (socket) => {
      socket.write('POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('{') : clearInterval(drip)), 100);
      socket.on('close', () => clearInterval(drip));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(result.closedAfterMs).toBeLessThan(quick.requestTimeoutMs + 1_500);
  });

  it('closes a client that never finishes its headers once the headers time-out passes', async () => {
    const port = await start(quick);
    const result = await slowClient(port, (socket) => {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('X-Slow: 1\r\n') : clearInterval(drip)), 100);
      socket.on('close', () => clearInterval(drip));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(result.closedAfterMs).toBeLessThan(quick.headersTimeoutMs + 1_500);
  });

  it('closes an idle keep-alive connection after the keep-alive time-out', async () => {
    const port = await start(quick);
    const result = await slowClient(port, (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(result.answer).toMatch(/^HTTP\/1\.1 200/);
    // Node adds up to a second to the keep-alive time-out before it closes the socket.
    expect(result.closedAfterMs).toBeLessThan(quick.keepAliveTimeoutMs + 1_500);
  });

  it('refuses connections beyond the cap while the others are open', async () => {
    const port = await start(quick);
    const idle = () => slowClient(port, (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
    void idle();
    void idle();
    void idle();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const beyond = await idle();
    expect(beyond.answer).toBe('');
    expect(beyond.closedAfterMs).toBeLessThan(300);
  });
});

describe('methods a page does not take (server.mjs answers 405 before reading the body)', () => {
  it('refuses a body sent to a page, an asset or an image, and lets the API and reads through', () => {
    for (const [method, url] of [
      ['POST', '/gallery'],
      ['PUT', '/'],
      ['POST', '/_next/image?url=x'],
      ['DELETE', '/contact?x=1'],
      ['OPTIONS', '/about'],
    ])
      expect(isMethodNotAllowed(method, url), `${method} ${url}`).toBe(true);
    for (const [method, url] of [
      ['GET', '/gallery'],
      ['HEAD', '/'],
      ['POST', '/api/contact'],
      ['POST', '/api/error-logs?x=1'],
    ])
      expect(isMethodNotAllowed(method, url), `${method} ${url}`).toBe(false);
  });
});
