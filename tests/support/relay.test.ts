// The browser tests' relay (tests/e2e/support/relay.ts), tested here because vitest leaves tests/e2e out.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRelay, type Relay } from '../e2e/support/relay';

type Received = {
  method: string;
  url: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  bytes: number;
  complete: boolean;
};

let site: http.Server;
let received: Received[];
let relay: Relay;

beforeEach(async () => {
  received = [];
  site = http.createServer((request, response) => {
    const entry: Received = {
      method: request.method ?? '',
      url: request.url,
      host: request.headers.host,
      origin: request.headers.origin,
      bytes: 0,
      complete: false,
    };
    received.push(entry);
    request.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
    request.on('end', () => {
      entry.complete = true;
      response.end(`${request.method} ${request.url} ${entry.bytes}`);
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  relay = await startRelay((site.address() as AddressInfo).port);
});

afterEach(async () => {
  await relay.close();
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

/** A request through the relay on a fresh connection: its answer's text, or the connection's error code. */
function send(url: string, method = 'GET', body?: Buffer): Promise<{ text: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method, agent: false, headers: body ? { 'Content-Length': body.length, Origin: new URL(url).origin } : {} },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ text }));
        response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(body);
  });
}

describe('relay', () => {
  it('is at localhost on a port of its own and passes requests and answers through unchanged, Host and Origin its own', async () => {
    expect(relay.url).toMatch(/^http:\/\/localhost:\d+$/);
    const body = Buffer.alloc(300_000, 7);
    expect(await send(`${relay.url}/a?b=1`)).toEqual({ text: 'GET /a?b=1 0' });
    expect(await send(`${relay.url}/upload`, 'POST', body)).toEqual({ text: 'POST /upload 300000' });
    const host = new URL(relay.url).host;
    expect(received.at(-1)).toMatchObject({ host, origin: `http://${host}`, bytes: 300_000, complete: true });
  });

  it('cut: new connections are refused and open ones are destroyed; restore: the same port answers again', async () => {
    const url = relay.url.replace('localhost', '127.0.0.1');
    // An open upload, half sent when the signal goes.
    const open = new Promise<string>((resolve) => {
      const request = http.request(`${url}/slow`, { method: 'POST', agent: false, headers: { 'Content-Length': 1000 } });
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      request.on('response', () => resolve('answered'));
      request.write(Buffer.alloc(500));
    });
    await expect.poll(() => received.at(-1)?.bytes).toBe(500);
    await relay.cut();
    expect(await open).toBe('ECONNRESET');
    expect(await send(`${url}/`)).toEqual({ error: 'ECONNREFUSED' });

    await relay.restore();
    expect(relay.url.replace('localhost', '127.0.0.1')).toBe(url);
    expect(await send(`${url}/again`)).toEqual({ text: 'GET /again 0' });
  });

  it('cutAfter: the next upload is cut after that many bytes reach the site, and the relay stays cut until restored', async () => {
    const url = relay.url.replace('localhost', '127.0.0.1');
    const cut = relay.cutAfter(100_000, { path: '/upload', after: 1 });
    // A plain request is no upload, an upload elsewhere is not the one, and the first to the path is let
    // through: all pass whole.
    expect(await send(`${url}/page`)).toEqual({ text: 'GET /page 0' });
    expect(await send(`${url}/log`, 'POST', Buffer.alloc(200_000, 1))).toEqual({ text: 'POST /log 200000' });
    expect(await send(`${url}/upload?first`, 'POST', Buffer.alloc(200_000, 1))).toEqual({ text: 'POST /upload?first 200000' });
    const upload = await send(`${url}/upload`, 'POST', Buffer.alloc(1_000_000, 1));
    await cut;
    expect(upload).toEqual({ error: 'ECONNRESET' });
    // The site reads what reached it after the relay has cut.
    await expect.poll(() => received.find((request) => request.url === '/upload')?.bytes).toBeGreaterThan(99_000);
    const cutUpload = received.find((request) => request.url === '/upload')!;
    // Headers and body together were 100 000 bytes: the body got a little less, and never its end.
    expect(cutUpload.bytes).toBeLessThan(100_000);
    expect(cutUpload.bytes).toBeGreaterThan(99_000);
    expect(cutUpload.complete).toBe(false);
    expect(await send(`${url}/`)).toEqual({ error: 'ECONNREFUSED' });

    await relay.restore();
    expect(await send(`${url}/upload`, 'POST', Buffer.alloc(1_000_000, 1))).toEqual({ text: 'POST /upload 1000000' });
  });
});
