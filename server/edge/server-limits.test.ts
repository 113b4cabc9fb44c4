import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LARGEST_BODY_BYTES, MIN_UPLOAD_BYTES_PER_SECOND } from '@/lib/enquiry-rules.mjs';
import {
  applyServerLimits,
  bodyDeadlineMs,
  bodyRequestRefusal,
  guardRequestBody,
  hasDotSegment,
  normalisedPathname,
  SERVER_LIMITS,
  serverOptions,
  type BodyOutcome,
  type ServerLimits,
} from '@/server/edge/server-limits.mjs';

// The limits as server.mjs applies them, on a plain Node server, with short times so the test is quick.
const quick: ServerLimits = {
  ...SERVER_LIMITS,
  headersTimeoutMs: 600,
  requestTimeoutMs: 20_000,
  bodyGraceMs: 600,
  minBodyBytesPerSecond: 1_000,
  bodyCeilingMs: 8_000,
  rateWindowMs: 600,
  lingerMs: 300,
  connectionsCheckingIntervalMs: 100,
  keepAliveTimeoutMs: 300,
  socketIdleTimeoutMs: 2_000,
  maxConnections: 3,
};

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  outcomes.splice(0);
  for (const socket of sockets.splice(0)) socket.destroy();
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

const outcomes: BodyOutcome[] = [];

/** A server as server.mjs runs it: the body guard on every request (with the minimum rate when `rate`). */
async function start(limits: ServerLimits, { rate = false, answerUnread = false, unreadPath = '' } = {}): Promise<number> {
  const created = applyServerLimits(
    createServer(serverOptions(limits), (request, response) => {
      guardRequestBody(request, response, {
        limits,
        minBytesPerSecond: rate ? () => limits.minBodyBytesPerSecond : undefined,
        onEnd: (outcome) => outcomes.push(outcome),
      });
      if (answerUnread) return void response.end('refused unread');
      // As Next does with a post it refuses: its body started, then left unread, so the request never ends.
      if (request.url === unreadPath) {
        request.once('data', () => request.pause());
        return void response.end('refused unread');
      }
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
      bodyGraceMs: 30_000,
      minBodyBytesPerSecond: 16_000,
      rateWindowMs: 5_000,
      bodyCeilingMs: 65 * 60_000,
      requestTimeoutMs: 66 * 60_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 512,
    });
    const options = serverOptions();
    expect(options).toMatchObject({ headersTimeout: 10_000, requestTimeout: 66 * 60_000, connectionsCheckingInterval: 2_000 });
    expect(MIN_UPLOAD_BYTES_PER_SECOND).toBe(16_000);
  });

  it('gives a body the time its declared length needs at the minimum rate, within the ceiling', () => {
    expect(bodyDeadlineMs(undefined)).toBe(30_000);
    expect(bodyDeadlineMs(2_000)).toBe(30_125);
    // One 4.4 MB photo: 305 s, where 30 s in all used to cut it off.
    expect(bodyDeadlineMs(4_400_000)).toBe(305_000);
    // The largest enquiry at 16 KB/s fits under the ceiling, and Node's own limit is past both.
    expect(bodyDeadlineMs(LARGEST_BODY_BYTES)).toBe(30_000 + Math.ceil((LARGEST_BODY_BYTES * 1000) / 16_000));
    expect(bodyDeadlineMs(LARGEST_BODY_BYTES)).toBeLessThan(SERVER_LIMITS.bodyCeilingMs);
    expect(bodyDeadlineMs(10 * LARGEST_BODY_BYTES)).toBe(SERVER_LIMITS.bodyCeilingMs);
    expect(SERVER_LIMITS.requestTimeoutMs).toBeGreaterThan(SERVER_LIMITS.bodyCeilingMs);
  });

  it('lets a body that keeps moving at the minimum rate finish, long past the grace', async () => {
    // 4,500 bytes at 1,500 B/s (quick's minimum is 1,000 B/s): 3 s, five times the grace (0.6 s) and windows.
    const port = await start(quick, { rate: true });
    const result = await slowClient(port, (socket) => {
      socket.write(
        'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4500\r\nConnection: close\r\n\r\n',
      );
      let sent = 0;
      const drip = setInterval(() => {
        if (!socket.writable || sent >= 4500) return clearInterval(drip);
        socket.write(Buffer.alloc(150, 0x61));
        sent += 150;
      }, 100);
      socket.on('close', () => clearInterval(drip));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(result.closedAfterMs).toBeGreaterThan(2_500);
    expect(outcomes).toEqual(['complete']);
  });

  it('cuts off a body trickled below the minimum rate within two windows (408, closed)', async () => {
    const port = await start(quick, { rate: true });
    const result = await slowClient(port, (socket) => {
      socket.write('POST /contact HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 3000\r\n\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('x') : clearInterval(drip)), 50);
      socket.on('close', () => clearInterval(drip));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(result.answer).toMatch(/connection: close/i);
    expect(result.closedAfterMs).toBeLessThan(2 * quick.rateWindowMs + 500);
    expect(outcomes).toEqual(['slow']);
  });

  it('closes a client that sends its body a byte at a time once its deadline passes (408)', async () => {
    const port = await start(quick);
    const result = await slowClient(port, (socket) => {
      socket.write('POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('{') : clearInterval(drip)), 100);
      socket.on('close', () => clearInterval(drip));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    // 0.6 s of grace and 1 s for 1,000 bytes at 1,000 B/s.
    expect(result.closedAfterMs).toBeGreaterThan(1_400);
    expect(result.closedAfterMs).toBeLessThan(1_600 + quick.lingerMs + 500);
    expect(outcomes).toEqual(['deadline']);
  });

  it('closes the connection soon after an answer sent without reading the body, however large it was declared', async () => {
    const port = await start(quick, { answerUnread: true });
    const result = await slowClient(port, (socket) => {
      socket.write('POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000000\r\n\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('{') : clearInterval(drip)), 100);
      socket.on('close', () => clearInterval(drip));
    });
    expect(result.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(result.closedAfterMs).toBeLessThan(quick.lingerMs + 1_000);
    expect(outcomes).toEqual(['linger']);
  });

  it('leaves a keep-alive connection alone once the body of an answer sent unread has arrived: a proxy’s next request on it goes through', async () => {
    const port = await start({ ...quick, keepAliveTimeoutMs: 5_000, bodyGraceMs: 3_000 }, { unreadPath: '/refused' });
    const result = await slowClient(port, (socket) => {
      // A small post refused unread (a rate limit's 429), whole; then, on the same connection, an upload
      // still arriving when the first one's linger ends.
      socket.write('POST /refused HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
      setTimeout(() => {
        socket.write('POST /api/contact HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 10\r\n\r\n{');
        let sent = 1;
        const drip = setInterval(() => {
          if (!socket.writable || sent >= 10) return void clearInterval(drip);
          socket.write('x');
          sent += 1;
        }, 100);
      }, 50);
    });
    expect(result.answer.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(result.answer.endsWith('ok')).toBe(true);
    expect(result.closedAfterMs).toBeGreaterThan(quick.lingerMs + 500);
  });

  it('tells a client that went away mid-body from one that finished', async () => {
    const port = await start(quick);
    await slowClient(port, (socket) => {
      socket.write('POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{');
      setTimeout(() => socket.destroy(), 100);
    });
    await expect.poll(() => outcomes).toEqual(['aborted']);
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

describe('methods a page does not take (server.mjs answers before reading the body)', () => {
  it('refuses a body sent to a page, an asset or an image, and lets the API and reads through', () => {
    for (const [method, url] of [
      ['POST', '/gallery'],
      ['PUT', '/'],
      ['POST', '/_next/image?url=x'],
      ['DELETE', '/contact?x=1'],
      ['OPTIONS', '/about'],
      ['POST', '//api/contact'],
    ])
      expect(bodyRequestRefusal(method, url), `${method} ${url}`).toBeDefined();
    for (const [method, url] of [
      ['GET', '/gallery'],
      ['HEAD', '/'],
      ['GET', '/api/../gallery'],
      ['POST', '/api/contact'],
      ['POST', '/api/error-logs?x=1'],
    ])
      expect(bodyRequestRefusal(method, url), `${method} ${url}`).toBeUndefined();
  });

  it('judges the path as Next resolves it: dot segments in any spelling are refused outright (400)', () => {
    for (const url of [
      '/api/../gallery',
      '/api/%2e%2e/gallery',
      '/api/%2E%2E/gallery',
      '/api/.%2e/gallery',
      '/api/%252e%252e/gallery',
      '/api/%25252e%25252e/gallery',
      '/api/..%2fgallery',
      '/api%2f..%2fgallery',
      '/api\\..\\gallery',
      '/api/./contact',
      '/api/%2e/contact',
    ]) {
      expect(hasDotSegment(url), url).toBe(true);
      expect(bodyRequestRefusal('POST', url), url).toBe('bad-path');
    }
    for (const url of ['/api/contact', '/api/contact?x=..', '/api/e2e-fault', '/contact?damage=water-damage', '/api/a..b'])
      expect(hasDotSegment(url), url).toBe(false);
    expect(bodyRequestRefusal('POST', 'http://other.example/api/contact')).toBe('bad-path');
    expect(bodyRequestRefusal('OPTIONS', '*')).toBe('bad-path');
  });

  it('normalises as the WHATWG URL parser does', () => {
    expect(normalisedPathname('/api/%2e%2e/gallery')).toBe('/gallery');
    expect(normalisedPathname('/api/../gallery?x=1')).toBe('/gallery');
    expect(normalisedPathname('/api\\..\\gallery')).toBe('/gallery');
    // Encoded twice is a literal segment named %2e%2e, not a dot segment (refused anyway, above).
    expect(normalisedPathname('/api/%252e%252e/gallery')).toBe('/api/%252e%252e/gallery');
    expect(normalisedPathname('//api/contact')).toBe('//api/contact');
    expect(normalisedPathname('*')).toBeUndefined();
  });

  it('lets a POST to the contact page through only when asked, on its exact normalised path', () => {
    expect(bodyRequestRefusal('POST', '/contact', ['/contact'])).toBeUndefined();
    expect(bodyRequestRefusal('POST', '/contact?damage=water-damage', ['/contact'])).toBeUndefined();
    expect(bodyRequestRefusal('POST', '/contact/', ['/contact'])).toBe('method');
    expect(bodyRequestRefusal('POST', '/contact/sent', ['/contact'])).toBe('method');
    expect(bodyRequestRefusal('POST', '/gallery/../contact', ['/contact'])).toBe('bad-path');
    expect(bodyRequestRefusal('POST', '/contact')).toBe('method');
  });

  it('takes a test of the normalised path too (the claim pages’ forms)', () => {
    const claimForm = (pathname: string) => pathname === '/track' || pathname.startsWith('/claim-update/');
    expect(bodyRequestRefusal('POST', '/track', [claimForm])).toBeUndefined();
    expect(bodyRequestRefusal('POST', '/claim-update/12.x', [claimForm])).toBeUndefined();
    expect(bodyRequestRefusal('POST', '/track/12.x', [claimForm])).toBe('method');
    expect(bodyRequestRefusal('POST', '/about/../track', [claimForm])).toBe('bad-path');
  });
});
