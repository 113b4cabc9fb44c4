// The upload gate as server.mjs keeps it, on a plain Node server with short windows: slots taken and
// freed, outcomes that are strikes, and answers given before a byte of the body is read.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createUploadSlots, UPLOAD_SLOTS, type UploadSlots } from '@/server/edge/upload-slots.mjs';
import { CLIENT_ADDRESS_HEADER } from '@/server/edge/client-address.mjs';
import { SERVER_LIMITS, type ServerLimits } from '@/server/edge/server-limits.mjs';
import { admitUpload, type GateRefusal } from '@/server/edge/upload-gate.mjs';

const quick: ServerLimits = { ...SERVER_LIMITS, bodyGraceMs: 600, rateWindowMs: 300, lingerMs: 300 };

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
});

/**
 * A server with the upload gate in front of a handler that reads the whole body and answers 200 (or 400 when
 * the body is "refuse me"). The client's address comes from a test header: loopback clients never get
 * strikes.
 */
async function start(slots: UploadSlots): Promise<{ port: number; refused: GateRefusal[] }> {
  const refused: GateRefusal[] = [];
  const created = createServer((request, response) => {
    request.headers[CLIENT_ADDRESS_HEADER] = String(request.headers['x-test-client']);
    const answered = admitUpload(request, response, {
      slots,
      limits: quick,
      refuse: (refusedResponse, refusal, status, headers) => {
        refused.push(refusal);
        refusedResponse.writeHead(status, { ...headers, Connection: 'close' });
        refusedResponse.end(refusal);
      },
    });
    if (answered) return;
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => response.writeHead(body === 'refuse me' ? 400 : 200).end('read'));
  });
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return { port: (created.address() as AddressInfo).port, refused };
}

/** A client sending `length` bytes declared, by `write`; resolves with the answer once the server closes or answers. */
function client(port: number, address: string, length: number, write: (socket: Socket) => void) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let answer = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (/\r\n\r\n/.test(answer)) resolve(answer);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
  });
  socket.on('connect', () => {
    socket.write(
      `POST /api/contact HTTP/1.1\r\nHost: x\r\nX-Test-Client: ${address}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n\r\n`,
    );
    write(socket);
  });
  return { socket, answered };
}

/** Sends `bytes` in steps of `step` every `everyMs`. */
function drip(socket: Socket, bytes: number, step: number, everyMs: number) {
  let sent = 0;
  const timer = setInterval(() => {
    if (!socket.writable || sent >= bytes) return clearInterval(timer);
    socket.write(Buffer.alloc(Math.min(step, bytes - sent), 0x61));
    sent += step;
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

const until = async (check: () => boolean) => {
  for (let tries = 0; tries < 100 && !check(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('the upload door', () => {
  it('every slot held: the next upload is answered busy (503, Retry-After) before its body is read', async () => {
    const slots = createUploadSlots({ limits: { ...UPLOAD_SLOTS, total: 1, atMinimumRate: 1 } });
    const { port, refused } = await start(slots);
    const holding = client(port, '192.0.2.1', 100_000, (socket) => drip(socket, 100_000, 5_000, 100));
    await until(() => slots.state().held === 1);
    const turned = client(port, '192.0.2.2', 50_000_000, () => undefined);
    const answer = await turned.answered;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/retry-after: 30/i);
    expect(turned.socket.bytesWritten).toBeLessThan(500);
    expect(refused).toEqual(['busy']);
    expect(await holding.answered).toMatch(/^HTTP\/1\.1 200/);
    await until(() => slots.state().held === 0);
    expect(slots.state()).toEqual({ held: 0, atMinimumRate: 0, clientsWithStrikes: 0 });
  });

  it('one upload at a time per client: a second from the same address is in-progress (429), another address is let in', async () => {
    const slots = createUploadSlots();
    const { port, refused } = await start(slots);
    const first = client(port, '192.0.2.10', 60_000, (socket) => drip(socket, 60_000, 5_000, 50));
    await until(() => slots.state().held === 1);
    expect(await client(port, '192.0.2.10', 10, () => undefined).answered).toMatch(/^HTTP\/1\.1 429/);
    expect(refused).toEqual(['in-progress']);
    const other = client(port, '192.0.2.11', 9, (socket) => socket.write('refuse me'));
    expect(await other.answered).toMatch(/^HTTP\/1\.1 400/);
    expect(await first.answered).toMatch(/^HTTP\/1\.1 200/);
    await until(() => slots.state().held === 0);
    // A body answered for its content is no strike.
    expect(slots.state().clientsWithStrikes).toBe(0);
  });

  it("a body below its slot's minimum rate is cut off (408), frees its slot, and is a strike: the client then waits, others do not", async () => {
    const slots = createUploadSlots({
      limits: { ...UPLOAD_SLOTS, total: 1, atMinimumRate: 1, strikesAllowed: 1 },
      minBytesPerSecond: 100_000,
    });
    const { port, refused } = await start(slots);
    const slow = client(port, '192.0.2.20', 200_000, (socket) => drip(socket, 200_000, 1_000, 100));
    expect(await slow.answered).toMatch(/^HTTP\/1\.1 408/);
    expect(refused).toEqual(['too-slow']);
    await until(() => slots.state().held === 0);
    expect(slots.state()).toEqual({ held: 0, atMinimumRate: 0, clientsWithStrikes: 1 });
    const again = await client(port, '192.0.2.20', 10, () => undefined).answered;
    expect(again).toMatch(/^HTTP\/1\.1 429/);
    expect(Number(/retry-after: (\d+)/i.exec(again)?.[1])).toBeGreaterThan(3000);
    expect(refused).toEqual(['too-slow', 'strikes']);
    expect(await client(port, '192.0.2.21', 4, (socket) => socket.write('fine')).answered).toMatch(/^HTTP\/1\.1 200/);
  });

  it('a client that goes away mid-body frees its slot and gets a strike', async () => {
    const slots = createUploadSlots({ limits: { ...UPLOAD_SLOTS, total: 1, atMinimumRate: 1 } });
    const { port } = await start(slots);
    const going = client(port, '192.0.2.30', 100_000, (socket) => socket.write(Buffer.alloc(1_000, 0x61)));
    await until(() => slots.state().held === 1);
    going.socket.destroy();
    await until(() => slots.state().held === 0);
    expect(slots.state()).toEqual({ held: 0, atMinimumRate: 0, clientsWithStrikes: 1 });
  });
});
