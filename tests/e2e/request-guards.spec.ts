import { connect } from 'node:net';
import { CONTACT_RESPONSES, refusedPostPages } from '@/content/contact';
import { expect, test } from './support/test';
import { ownLoopbackAddress } from '../support/unreliable-forwarder';
import { testSiteUrl } from './test-env';

// What server.mjs answers before Next reads a byte of a body (server/edge/server-limits.mjs,
// server/edge/request-origin.mjs, server/edge/contact-page-post.mjs), on the running production build: each
// request announces a large body, sends a few KB of it, and must be answered at once.

type Raw = { head: string; body: string; afterMs: number };

/** Sends the request line, `headers` and `sent` bytes of the announced body; resolves with the answer. */
function rawPost(target: string, headers: Record<string, string>, sent: number, localAddress?: string): Promise<Raw> {
  const { hostname, port } = new URL(testSiteUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    const socket = connect({ port: Number(port), host: hostname, localAddress }, () => {
      const lines = Object.entries({ Host: `${hostname}:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`POST ${target} HTTP/1.1\r\n${lines.join('')}\r\n`);
      socket.write(Buffer.alloc(sent, 0x61));
    });
    const finish = () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      socket.destroy();
      resolve({ head, body, afterMs: Date.now() - started });
    };
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const [head, body] = received.split('\r\n\r\n');
      const length = Number(/^content-length: (\d+)/im.exec(head ?? '')?.[1] ?? NaN);
      if (body !== undefined && Buffer.byteLength(body) >= length) finish();
    });
    socket.on('close', finish);
    socket.on('error', (error) => (received ? finish() : reject(error)));
    setTimeout(() => reject(new Error(`no answer within 3 s; got ${JSON.stringify(received)}`)), 3000);
  });
}

const announced = { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': '3000000' };

for (const target of ['/api/../gallery', '/api/%2e%2e/gallery', '/api/%252e%252e/gallery', '/api\\..\\gallery']) {
  test(`POST ${target} is refused at once, with 2,996,000 of its 3,000,000 bytes never sent`, async () => {
    const answer = await rawPost(target, announced, 4_000);
    expect(answer.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.head).toMatch(/^connection: close\r?$/im);
    expect(answer.afterMs).toBeLessThan(2_000);
  });
}

test('a post from another website is refused (403) before its body is read, on the API and on the contact page', async () => {
  for (const target of ['/api/contact', '/api/error-logs', '/contact', '/claims/HC-ABC-DEF/photos']) {
    const answer = await rawPost(target, { ...announced, Origin: 'https://evil.example' }, 4_000);
    expect(answer.head, target).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer.afterMs, target).toBeLessThan(2_000);
  }
  const page = await rawPost('/contact?damage=water-damage', { ...announced, 'Sec-Fetch-Site': 'cross-site' }, 100);
  expect(page.head).toMatch(/^content-type: text\/html/im);
  expect(page.body).toContain('Enquiry not accepted');
});

test('photos posted to the old address of a status token are answered (410) at once, with the rest of their body never sent', async () => {
  const target = `/api/claims/photos/12.${'A'.repeat(32)}`;
  const scripted = await rawPost(target, { ...announced, Accept: 'application/json' }, 4_000);
  expect(scripted.head).toMatch(/^HTTP\/1\.1 410 /);
  expect(scripted.afterMs).toBeLessThan(2_000);
  expect(JSON.parse(scripted.body)).toMatchObject({ success: false, reason: 'not-found' });
  const page = await rawPost(target, announced, 4_000);
  expect(page.head).toMatch(/^HTTP\/1\.1 410 /);
  expect(page.body).toContain('This page is out of date');
});

test('the contact page takes a form posted without JavaScript only as a multipart form of a size it accepts', async () => {
  const tooLarge = await rawPost('/contact', { ...announced, 'Content-Length': '60098305' }, 4_000);
  expect(tooLarge.head).toMatch(/^HTTP\/1\.1 413 /);
  expect(tooLarge.body).toContain('Your enquiry is too large to send');
  expect(tooLarge.body).toMatch(/<a href="tel:\+\d+">/);
  expect(tooLarge.body).toContain('<a href="/contact">');
  const notAForm = await rawPost('/contact', { 'Content-Type': 'text/plain', 'Content-Length': '10' }, 10);
  expect(notAForm.head).toMatch(/^HTTP\/1\.1 415 /);
  const noLength = await rawPost('/contact', { 'Content-Type': 'multipart/form-data; boundary=x', 'Transfer-Encoding': 'chunked' }, 0);
  expect(noLength.head).toMatch(/^HTTP\/1\.1 411 /);
});

/**
 * Opens a POST from `localAddress` that announces `length` bytes and sends a few KB of them, holding
 * the connection open. It asks for `100 Continue`, which the server sends just before it hands the
 * request on (its upload gate takes the slot then, in the same turn): `admitted` resolves on it.
 */
function heldPost(target: string, length: number, localAddress: string) {
  const { hostname, port } = new URL(testSiteUrl);
  let admit: () => void = () => undefined;
  const admitted = new Promise<void>((resolve) => (admit = resolve));
  let received = '';
  const socket = connect({ port: Number(port), host: hostname, localAddress }, () => {
    socket.write(
      `POST ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nExpect: 100-continue\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(4_000, 0x61));
  });
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    if (/^HTTP\/1\.1 100 /.test(received)) admit();
  });
  socket.on('error', () => undefined);
  return { socket, admitted };
}

test("both ways in share the upload slots: while one of a client's photo uploads arrives, its next is asked to wait", async () => {
  // Each half is a client of its own (a loopback address each), so the second does not wait for the
  // server to let go of the first's slot.
  const client = ownLoopbackAddress();
  // The form posted without script holds the client's one slot; the scripted form's photos wait (JSON)…
  const page = heldPost('/contact', 3_000_000, client);
  await page.admitted;
  const api = await rawPost('/api/contact', announced, 100, client);
  expect(api.head).toMatch(/^HTTP\/1\.1 429 /);
  expect(api.head).toMatch(/^retry-after: 30\r?$/im);
  expect(JSON.parse(api.body)).toEqual({ success: false, message: CONTACT_RESPONSES.uploadInProgress, reason: 'busy' });
  page.socket.destroy();

  // …and the other way round, answered with a page.
  const otherClient = ownLoopbackAddress();
  const scripted = heldPost('/api/contact', 3_000_000, otherClient);
  await scripted.admitted;
  const form = await rawPost('/contact', announced, 100, otherClient);
  expect(form.head).toMatch(/^HTTP\/1\.1 429 /);
  expect(form.body).toContain(refusedPostPages.inProgress.title);
  scripted.socket.destroy();
});
