import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setPageStatus, withPageStatus } from '@/server/edge/page-status.mjs';

let close: (() => void) | undefined;
afterEach(() => close?.());

/** A server whose "page" says 404 after some asynchronous work, as a page does while it renders, then writes 200 as Next does. */
async function site(says: number | undefined) {
  const render = async (_request: IncomingMessage, response: ServerResponse) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.resolve();
    if (says) setPageStatus(says);
    response.statusCode = 200;
    response.end('<p>This link no longer works</p>');
  };
  const server = createServer((request, response) => void withPageStatus(request, response, () => render(request, response)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("a page's own status", () => {
  it('answers a document with the status its page said, the body as rendered', async () => {
    const url = await site(404);
    const answer = await fetch(`${url}/claims/HC-ABC-DEF`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toBe('<p>This link no longer works</p>');
    expect((await fetch(`${url}/claims/HC-ABC-DEF`, { method: 'HEAD' })).status).toBe(404);
  });

  it('leaves a client-side navigation’s payload, a server action’s answer and a post at 200, and a page that says nothing', async () => {
    const url = await site(404);
    expect((await fetch(url, { headers: { RSC: '1' } })).status).toBe(200);
    expect((await fetch(url, { method: 'POST', headers: { 'Next-Action': 'abc' } })).status).toBe(200);
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    close?.();
    const quiet = await site(undefined);
    expect((await fetch(quiet)).status).toBe(200);
  });

  it('is a no-op outside a request', () => {
    expect(() => setPageStatus(404)).not.toThrow();
  });
});
