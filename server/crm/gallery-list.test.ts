import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchCrmGalleryList } from './gallery-list';

// A CRM on a local port that answers GET /api/gallery/public as each test needs.
let answer: (response: import('node:http').ServerResponse) => void = (response) => response.end();
let bytesSent = 0;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url !== '/api/gallery/public') return void response.writeHead(404).end();
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

// A generous time for the answers the CRM gives (a loaded machine once took 791 ms for the first); the
// test of a CRM that never answers gives its own short one.
const limits = { timeoutMs: 10_000, maxBytes: 64 * 1024 };

describe('fetchCrmGalleryList', () => {
  it('returns the list as the CRM sends it', async () => {
    answer = (response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[{"_id":"1"}]}');
    await expect(fetchCrmGalleryList(`${base}/`, limits)).resolves.toEqual({ data: [{ _id: '1' }] });
  });

  it('refuses an error answer, a redirect and a body that is not JSON', async () => {
    answer = (response) => response.writeHead(503).end('down');
    await expect(fetchCrmGalleryList(base, limits)).rejects.toThrow('the CRM answered 503 for the gallery list');
    answer = (response) => response.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data' }).end();
    await expect(fetchCrmGalleryList(base, limits)).rejects.toThrow();
    answer = (response) => response.writeHead(200).end('<html>');
    await expect(fetchCrmGalleryList(base, limits)).rejects.toThrow(SyntaxError);
  });

  it('stops reading a body that passes the limit instead of buffering it', async () => {
    bytesSent = 0;
    answer = (response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        // An endless body: only the client's giving up ends it.
        while (!response.destroyed && bytesSent < 50 * 1024 * 1024 && response.write(chunk)) bytesSent += chunk.length;
        if (!response.destroyed && bytesSent < 50 * 1024 * 1024) response.once('drain', pump);
      };
      response.write('{"data":[');
      pump();
    };
    await expect(fetchCrmGalleryList(base, limits)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bytesSent).toBeLessThan(8 * 1024 * 1024);
  });

  it('gives up on a CRM that does not answer', async () => {
    answer = () => undefined;
    await expect(fetchCrmGalleryList(base, { ...limits, timeoutMs: 500 })).rejects.toThrow(/timeout|aborted/i);
  });
});
