// `npm run bench:abuse`: what one hostile client can make the production server spend. Not a test:
// the figures depend on the machine. Against the production build (built the way `npm run build` does
// when there is none), on a free port, with its own database:
//   1. for each contact field, the worst input we know of, as long as the body allows, next to an
//      ordinary invalid request: median latency and their ratio (fails when a ratio passes 5);
//   2. requests per second of ordinary page loads with and without 200 slow-body clients connected;
//   3. resident memory of a rate limiter after a million distinct client keys.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CONTACT_MAX } from '@/lib/contact-rules';
import { createRateLimiter } from '@/server/rate-limiter';
import { ensureBuild } from './support/ensure-build.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3995' },
    'dist-dir': { type: 'string', default: '.next' },
    samples: { type: 'string', default: '40' },
    'slow-clients': { type: 'string', default: '200' },
  },
});
const port = Number(values.port);
const distDir = values['dist-dir'];
const samples = Number(values.samples);
const slowClients = Number(values['slow-clients']);
const base = `http://127.0.0.1:${port}`;
const MAX_RATIO = 5;
const BODY_BUDGET = 30 * 1024; // under the endpoint's 32 KiB cap, so the body is parsed, not refused for size

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
ensureBuild(distDir);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

async function startSite(env: Record<string, string>): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['server.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_DIST_DIR: distDir, PORT: String(port), HOSTNAME: '127.0.0.1', ...env },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      (await fetch(`${base}/about`)
        .then((response) => response.ok)
        .catch(() => false)) === true
    )
      return server;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('The server did not start.');
    await sleep(200);
  }
}

// Every request comes from a new address (the bench plays the trusted proxy), so the per-client
// budgets never answer 429 and each request costs the server the full validation.
let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

async function timePost(body: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body,
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };

/** The longest value of `unit` repeated that keeps the JSON body, in UTF-8 bytes, within BODY_BUDGET. */
function fill(field: string, prefix: string, unit: string, suffix = ''): string {
  const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
  const room = BODY_BUDGET - Buffer.byteLength(JSON.stringify({ ...valid, [field]: prefix + suffix }));
  return prefix + unit.repeat(Math.max(0, Math.floor(room / unitBytes))) + suffix;
}

// The worst inputs we know of for each field: the old e-mail pattern's quadratic case, runs that the
// normalisation rewrites (line separators, control characters, combining marks), and at the limit.
const worstCases: { field: keyof typeof valid; label: string; value: string }[] = [
  { field: 'email', label: 'email: "a@" + dots + "@"', value: fill('email', 'a@', '.', '@') },
  { field: 'email', label: `email: at its ${CONTACT_MAX.email}-character limit, dots`, value: `a@${'.'.repeat(CONTACT_MAX.email - 3)}@` },
  { field: 'name', label: 'name: combining accents (NFC)', value: fill('name', 'a', '\u0301') },
  { field: 'phone', label: 'phone: control characters', value: fill('phone', '0', '\u0007') },
  { field: 'subject', label: 'subject: CR LF runs', value: fill('subject', 'S', '\r\n') },
  { field: 'message', label: 'message: line separators', value: fill('message', 'M', '\u2028') },
  { field: 'message', label: `message: at its ${CONTACT_MAX.message}-character limit + 1`, value: 'x'.repeat(CONTACT_MAX.message + 1) },
];

async function latencyRun(): Promise<boolean> {
  console.log(`== Worst-case inputs (median of ${samples}, each from a fresh address)`);
  const ordinaryBody = JSON.stringify({ ...valid, name: 'J' });
  for (let i = 0; i < 10; i += 1) await timePost(ordinaryBody); // warm-up
  const ordinaryTimes: number[] = [];
  for (let i = 0; i < samples; i += 1) ordinaryTimes.push((await timePost(ordinaryBody)).ms);
  const ordinary = median(ordinaryTimes);
  console.log(`${'ordinary invalid request (name "J")'.padEnd(44)} ${ordinary.toFixed(2).padStart(8)} ms`);
  let ok = true;
  for (const worst of worstCases) {
    const body = JSON.stringify({ ...valid, [worst.field]: worst.value });
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < samples; i += 1) {
      const result = await timePost(body);
      times.push(result.ms);
      status = result.status;
    }
    const ratio = median(times) / ordinary;
    if (ratio > MAX_RATIO) ok = false;
    console.log(
      `${worst.label.padEnd(44)} ${median(times).toFixed(2).padStart(8)} ms  x${ratio.toFixed(2)}  (${(Buffer.byteLength(body) / 1024).toFixed(1)} KiB, answered ${status})${ratio > MAX_RATIO ? '  OVER THE LIMIT' : ''}`,
    );
  }
  return ok;
}

async function pageLoads(label: string): Promise<number> {
  const result = await autocannon({ url: `${base}/about`, connections: 10, duration: 8 });
  console.log(
    `${label.padEnd(44)} ${result.requests.average.toFixed(0).padStart(8)} req/s  p99 ${result.latency.p99} ms  (errors ${result.errors}, non-2xx ${result.non2xx})`,
  );
  return result.requests.average;
}

/** Opens `count` connections that send a contact POST's headers, then one body byte a second. */
function slowBodies(count: number): { sockets: Socket[]; stop: () => void } {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += 1) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(
        `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 30000\r\nX-Forwarded-For: ${nextAddress()}\r\n\r\n{`,
      );
    });
    sockets.push(socket);
  }
  const drip = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write(' ');
  }, 1000);
  return {
    sockets,
    stop: () => {
      clearInterval(drip);
      for (const socket of sockets) socket.destroy();
    },
  };
}

async function slowClientRun() {
  console.log(`\n== Page loads (GET /about, 10 connections, 8 s) with and without ${slowClients} slow-body clients`);
  await autocannon({ url: `${base}/about`, connections: 10, duration: 3 }); // warm-up, not reported
  const without = await pageLoads('without slow clients');
  const slow = slowBodies(slowClients);
  await sleep(1000);
  const open = slow.sockets.filter((socket) => !socket.destroyed).length;
  const withSlow = await pageLoads(`with ${open} slow-body clients connected`);
  const stillOpen = slow.sockets.filter((socket) => !socket.destroyed).length;
  slow.stop();
  console.log(
    `ratio ${(withSlow / without).toFixed(2)}; slow clients still connected after the run: ${stillOpen} (the 30 s request time-out closes them)`,
  );
}

function memoryRun() {
  console.log('\n== A rate limiter after a million distinct client keys');
  const before = process.memoryUsage().rss;
  const limiter = createRateLimiter({ limit: 5, windowMs: 600_000 });
  for (let i = 0; i < 1_000_000; i += 1) limiter.hit(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::/64`);
  global.gc?.();
  const after = process.memoryUsage().rss;
  console.log(
    `clients remembered ${limiter.size}; resident memory ${(before / 2 ** 20).toFixed(0)} MB before, ${(after / 2 ** 20).toFixed(0)} MB after`,
  );
}

const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-abuse-'));
let passed = true;
let server: ChildProcess | undefined;
try {
  server = await startSite({
    DATABASE_URL: `file:${path.join(work, 'site.db')}`,
    ENQUIRY_OUTBOX_DIR: path.join(work, 'outbox'),
    TRUST_PROXY: '1',
    SMTP_URL: '',
    RECAPTCHA_PROJECT_ID: '',
    RECAPTCHA_API_KEY: '',
  });
  passed = await latencyRun();
  await slowClientRun();
  memoryRun();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  passed = false;
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
}
console.log(passed ? `\nOK: no worst-case input costs more than ${MAX_RATIO} times an ordinary invalid request.` : '\nFAILED: see above.');
process.exit(passed ? 0 : 1);
