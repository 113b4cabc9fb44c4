// `npm run bench:abuse`: what one hostile client can make the production server spend. Not a test:
// the figures depend on the machine. Against the production build (built the way `npm run build` does
// when there is none), on a free port, with its own database:
//   1. for each contact field, the worst input we know of, as long as the body allows, next to an
//      ordinary invalid request: median latency and their ratio (fails when a ratio passes 5);
//   2. requests per second of ordinary page loads with and without 200 slow-body clients connected;
//   3. resident memory of a rate limiter after a million distinct client keys;
//   4. the server's peak memory for the worst photos it accepts, one at a time and four at once, and
//      for decompression bombs it refuses from their headers; what the old settings paid for a bomb;
//   5. acknowledgements queued when many enquiries name one victim's address, and many addresses;
//   6. bytes written to the photo folder when enquiries with photos keep coming past its budget;
//   7. the server's memory while 50 clients send slow 10 MB POSTs to a page.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { CONTACT_MAX, ENQUIRY_TEXT_MAX_BYTES } from '@/lib/enquiry-rules.mjs';
import { createRateLimiter } from '@/server/base/rate-limiter';
import { phonePhoto } from './support/phone-photos';
import { ensureBuild } from '../site/ensure-build.mjs';
import { startSiteServer, type SiteServer } from '../support/site-server';

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
const BODY_BUDGET = ENQUIRY_TEXT_MAX_BYTES - 2 * 1024; // under the endpoint's cap, so the body is parsed, not refused for size

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
ensureBuild(distDir);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const startSite = (env: Record<string, string>) => startSiteServer({ port, distDir, env, readyPath: '/about', showErrors: true });

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

// 10 connections of 900 requests each: under the server's maxRequestsPerSocket (1000), beyond which
// Node answers 503 and closes, which would be counted as fast failures.
async function pageLoads(label: string): Promise<number> {
  const result = await autocannon({ url: `${base}/about`, connections: 10, amount: 9000 });
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
  console.log(`\n== Page loads (GET /about, 10 connections, 9000 requests) with and without ${slowClients} slow-body clients`);
  await autocannon({ url: `${base}/about`, connections: 10, amount: 3000 }); // warm-up, not reported
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

// ---- Memory, mail and disk: what photos, acknowledgements and page POSTs can make the server spend.

const MB = 2 ** 20;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
/** The server process's resident memory now, or its peak since the last resetPeak (VmHWM). */
const memoryOf = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
/** Linux: writing 5 to clear_refs sets the peak back to the current resident size. */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

type Upload = { name: string; bytes: Buffer; type: string };

async function postEnquiry(
  fields: Record<string, string>,
  photos: Upload[] = [],
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const headers = { 'x-forwarded-for': nextAddress() };
  let response: Response;
  if (photos.length === 0) {
    response = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });
  } else {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const photo of photos) form.append('photos', new Blob([new Uint8Array(photo.bytes)], { type: photo.type }), photo.name);
    response = await fetch(`${base}/api/contact`, { method: 'POST', headers, body: form });
  }
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

/** A photo-like picture (a gradient with a little noise) that stays under the 10 MB cap at 50 MP. */
function photoLike(width: number, height: number, noiseAmplitude: number) {
  const pixels = Buffer.alloc(width * height * 3);
  let state = 7;
  for (let index = 0; index < pixels.length; index += 3) {
    state = (state * 1103515245 + 12345) >>> 0;
    const noise = ((state >>> 24) * noiseAmplitude) / 255;
    const x = (index / 3) % width;
    pixels[index] = (x * 200) / width + noise;
    pixels[index + 1] = 90 + noise;
    pixels[index + 2] = 160 - noise;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}
const flat = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } });

/** What the server before its pixel budgets paid to re-encode a photo: its sharp settings, in a child process. */
function oldSettingsPeak(file: string): number {
  const script = `require('sharp')(process.argv[1], { limitInputPixels: 100e6, sequentialRead: true, failOn: 'truncated' })
    .rotate().resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82 })
    .toBuffer().then(() => console.log(process.resourceUsage().maxRSS), (error) => console.log('refused: ' + error.message))`;
  const out = execFileSync(process.execPath, ['-e', script, file], { encoding: 'utf8' }).trim();
  if (!/^\d+$/.test(out)) throw new Error(out);
  return Number(out) * 1024;
}

/**
 * Each case on a freshly started server, so no memory a previous photo left resident hides what this
 * one needs: the peak resident size (VmHWM) while it is answered, over the resident size before it.
 */
async function photoMemoryRun(startFresh: () => Promise<SiteServer>) {
  console.log('\n== Peak memory of the server for photo enquiries (each case on a fresh server: peak over resident before)');
  const cases: { label: string; photo: () => Promise<Upload>; accepted: boolean }[] = [
    {
      label: 'baseline JPEG 8160x6120 (49.9 MP)',
      accepted: true,
      photo: async () => ({ name: 'big.jpg', type: 'image/jpeg', bytes: await photoLike(8160, 6120, 24).jpeg({ quality: 80 }).toBuffer() }),
    },
    {
      label: 'WebP 8160x6120 (49.9 MP)',
      accepted: true,
      photo: async () => ({
        name: 'big.webp',
        type: 'image/webp',
        bytes: await photoLike(8160, 6120, 24).webp({ quality: 80 }).toBuffer(),
      }),
    },
    {
      label: 'progressive JPEG 4:4:4 5656x4242 (24 MP)',
      accepted: true,
      photo: async () => ({
        name: 'prog.jpg',
        type: 'image/jpeg',
        bytes: await photoLike(5656, 4242, 24).jpeg({ quality: 80, progressive: true, chromaSubsampling: '4:4:4' }).toBuffer(),
      }),
    },
    {
      label: 'PNG 16-bit interlaced 5656x4242 (24 MP)',
      accepted: true,
      photo: async () => ({
        name: 'deep.png',
        type: 'image/png',
        bytes: await photoLike(5656, 4242, 0).toColourspace('rgb16').png({ progressive: true }).toBuffer(),
      }),
    },
    {
      label: 'PNG 5656x4242 (24 MP)',
      accepted: true,
      photo: async () => ({ name: 'big.png', type: 'image/png', bytes: await photoLike(5656, 4242, 0).png().toBuffer() }),
    },
    {
      label: 'JPEG bomb 16000x6250 (100 MP)',
      accepted: false,
      photo: async () => ({ name: 'bomb.jpg', type: 'image/jpeg', bytes: await flat(16000, 6250).jpeg({ quality: 10 }).toBuffer() }),
    },
    {
      label: 'PNG bomb 16000x6250 (100 MP)',
      accepted: false,
      photo: async () => ({ name: 'bomb.png', type: 'image/png', bytes: await flat(16000, 6250).png({ compressionLevel: 9 }).toBuffer() }),
    },
    {
      label: 'AVIF bomb 16000x6250 (100 MP)',
      accepted: false,
      photo: async () => ({ name: 'bomb.avif', type: 'image/avif', bytes: await flat(16000, 6250).avif({ effort: 0 }).toBuffer() }),
    },
  ];
  const measure = async (photos: Upload[]) => {
    const site = await startFresh();
    await postEnquiry({ ...valid, message: 'A warm-up enquiry without photos.' });
    await sleep(500);
    const before = memoryOf(site.pid!, 'VmRSS');
    resetPeak(site.pid!);
    const started = performance.now();
    const statuses = await Promise.all(photos.map((photo) => postEnquiry(valid, [photo]).then((result) => result.status)));
    const ms = performance.now() - started;
    const peak = memoryOf(site.pid!, 'VmHWM') - before;
    await stopSite();
    return { statuses, ms, before, peak };
  };
  const accepted: { label: string; photo: Upload; peak: number }[] = [];
  for (const entry of cases) {
    const photo = await entry.photo();
    const { statuses, ms, before, peak } = await measure([photo]);
    if (entry.accepted) accepted.push({ label: entry.label, photo, peak });
    const size = photo.bytes.length >= MB ? `${(photo.bytes.length / 1e6).toFixed(1)} MB` : `${(photo.bytes.length / 1000).toFixed(1)} KB`;
    console.log(
      `${entry.label.padEnd(42)} ${size.padStart(8)}  answered ${statuses[0]} in ${ms.toFixed(0).padStart(5)} ms  resident ${mb(before)}, peak +${mb(peak)}`,
    );
    if (entry.label.startsWith('AVIF')) {
      const file = path.join(work, 'bomb.avif');
      writeFileSync(file, photo.bytes);
      console.log(`${'  the same AVIF under the old settings'.padEnd(48)} decoded in a child process: peak ${mb(oldSettingsPeak(file))}`);
    }
  }
  const heaviest = accepted.sort((a, b) => b.peak - a.peak)[0]!;
  const four = await measure([heaviest.photo, heaviest.photo, heaviest.photo, heaviest.photo]);
  console.log(
    `four of the heaviest (${heaviest.label}) at once, from four addresses: answered ${four.statuses.join(', ')}; resident ${mb(four.before)}, peak +${mb(four.peak)}`,
  );
}

const ackCount = async (dbFile: string, where = '') => {
  const db = createClient({ url: `file:${dbFile}` });
  try {
    const result = await db.execute(
      `SELECT count(*) AS n FROM enquiry_notifications n JOIN enquiries e ON e.id = n.enquiry_id WHERE n.kind = 'acknowledgement' ${where}`,
    );
    return Number(result.rows[0]?.n);
  } finally {
    db.close();
  }
};

async function acknowledgementRun(dbFile: string) {
  console.log('\n== Acknowledgements queued (ENQUIRY_ACKNOWLEDGE_PER_HOUR at its default of 10, no reCAPTCHA)');
  const victimStatuses = new Map<number, number>();
  for (let i = 0; i < 20; i += 1) {
    const { status } = await postEnquiry({
      ...valid,
      email: 'victim@example.net',
      message: `Claim your refund at evil.example/r number ${i}.`,
    });
    victimStatuses.set(status, (victimStatuses.get(status) ?? 0) + 1);
  }
  const toVictim = await ackCount(dbFile, `AND e.email_key = 'victim@example.net'`);
  console.log(
    `20 enquiries naming victim@example.net from 20 addresses (answers ${[...victimStatuses].map(([s, n]) => `${n}x ${s}`).join(', ')}): ${toVictim} acknowledgement(s) to it`,
  );
  for (let i = 0; i < 40; i += 1) await postEnquiry({ ...valid, email: `victim-${i}@example.net`, message: `Message ${i}.` });
  console.log(
    `then 40 enquiries naming 40 other addresses: ${(await ackCount(dbFile)) - toVictim} more; acknowledgements queued in all: ${await ackCount(dbFile)}`,
  );
}

const folderBytes = (folder: string): number =>
  readdirSync(folder, { withFileTypes: true }).reduce((total, entry) => {
    const full = path.join(folder, entry.name);
    return total + (entry.isDirectory() ? folderBytes(full) : statSync(full).size);
  }, 0);

async function photoBudgetRun(photosDir: string, budgetMb: number, enquiries: number) {
  console.log(
    `\n== Photo storage with ENQUIRY_PHOTOS_MAX_MB=${budgetMb}: ${enquiries} enquiries of 6 phone photos (4032x3024 noise), each from a new address`,
  );
  const photos: Upload[] = [];
  for (let seed = 1; seed <= 6; seed += 1) photos.push({ name: `p${seed}.jpg`, type: 'image/jpeg', bytes: await phonePhoto(seed) });
  console.log(`upload per enquiry ${(photos.reduce((sum, photo) => sum + photo.bytes.length, 0) / 1e6).toFixed(1)} MB`);
  let kept = 0;
  let notKept = 0;
  let other = 0;
  for (let i = 0; i < enquiries; i += 1) {
    const { status, body } = await postEnquiry({ ...valid, message: `Enquiry ${i} with photos.` }, photos);
    if (status === 201 && body?.photosNotKept) notKept += 1;
    else if (status === 201) kept += 1;
    else other += 1;
  }
  const written = folderBytes(photosDir);
  console.log(
    `stored with photos ${kept}, stored without (photos not kept) ${notKept}, other answers ${other}; photo folder ${(written / 1e6).toFixed(1)} MB (${((100 * written) / (budgetMb * MB)).toFixed(0)}% of the budget)`,
  );
}

async function slowPagePostRun(pid: number, clients: number) {
  console.log(`\n== ${clients} clients each declaring a 10 MB POST to /gallery and sending 64 KB a second for 10 s`);
  const before = memoryOf(pid, 'VmRSS');
  resetPeak(pid);
  const started = performance.now();
  const answers: { status: string; ms: number }[] = [];
  let closedByServer = 0;
  const chunk = Buffer.alloc(64 * 1024, 120);
  const sockets = Array.from({ length: clients }, () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    // Written at once, so the headers are queued before the first chunk of the body.
    socket.write(
      `POST /gallery HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 10000000\r\nX-Forwarded-For: ${nextAddress()}\r\n\r\n`,
    );
    socket.once('data', (data) => answers.push({ status: data.toString('latin1').split('\r\n')[0]!, ms: performance.now() - started }));
    socket.on('close', () => (closedByServer += 1));
    return socket;
  });
  for (let second = 0; second < 10; second += 1) {
    for (const socket of sockets) if (socket.writable) socket.write(chunk);
    await sleep(1000);
  }
  const peak = memoryOf(pid, 'VmHWM') - before;
  const stillOpen = sockets.filter((socket) => !socket.destroyed).length;
  const closed = closedByServer;
  for (const socket of sockets) socket.destroy();
  const statuses = [...new Set(answers.map((answer) => answer.status))].join(', ') || 'none';
  const answerMs = answers.length ? median(answers.map((answer) => answer.ms)).toFixed(0) : '-';
  console.log(
    `answered ${answers.length} (${statuses}), median ${answerMs} ms after connecting; closed by the server ${closed}, still open after 10 s ${stillOpen}; resident ${mb(before)} before, peak +${mb(peak)}`,
  );
}

const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-abuse-'));
let passed = true;
let server: SiteServer | undefined;
let memoryRuns = 0;
const stopSite = async () => {
  await server?.stop();
};
const siteEnv = (name: string) => ({
  DATABASE_URL: `file:${path.join(work, `${name}.db`)}`,
  ENQUIRY_OUTBOX_DIR: path.join(work, `${name}-outbox`),
  ENQUIRY_PHOTOS_DIR: path.join(work, `${name}-photos`),
  TRUST_PROXY: '1',
  SMTP_URL: '',
  RECAPTCHA_PROJECT_ID: '',
  RECAPTCHA_API_KEY: '',
});
try {
  server = await startSite(siteEnv('site'));
  passed = await latencyRun();
  await slowClientRun();
  memoryRun();
  await slowPagePostRun(server.pid!, 50);
  await stopSite();
  await photoMemoryRun(async () => {
    server = await startSite(siteEnv(`memory-${++memoryRuns}`));
    return server;
  });
  // A fresh site, so no acknowledgement queued above counts against the hourly cap.
  const budgetMb = 40;
  server = await startSite({ ...siteEnv('fresh'), ENQUIRY_PHOTOS_MAX_MB: String(budgetMb) });
  await acknowledgementRun(path.join(work, 'fresh.db'));
  await photoBudgetRun(path.join(work, 'fresh-photos'), budgetMb, 8);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  passed = false;
} finally {
  await stopSite();
  rmSync(work, { recursive: true, force: true });
}
console.log(passed ? `\nOK: no worst-case input costs more than ${MAX_RATIO} times an ordinary invalid request.` : '\nFAILED: see above.');
process.exit(passed ? 0 : 1);
