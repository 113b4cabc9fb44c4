// `npm run bench:phone [-- --cases phone,one-bar --case-timeout 300 --port 3980 --keep --verbose]` (the port is
// 3980 + TEST_PORT_OFFSET by default; the browser goes through a forwarder on the next one): a claim with three
// full-size phone photos (4032x3024 JPEG with EXIF, several MB each) sent from Debian's Chromium through
// the real contact form at /contact of a production build (.next-bench, embedded defaults: reCAPTCHA off,
// notifications written as .eml files), on a phone's network emulated through the DevTools protocol
// (Network.emulateNetworkConditions: 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up; one bar: 320 kbit/s up).
// Cases: each network as it is; each again with the connection dropped once half the body is up (every
// connection cut by a TCP forwarder between the browser and the site, then DevTools offline for 2 s); and
// the phone network with the answer lost (the whole body arrives, the forwarder swallows the answer).
// For each it prints the photos' bytes, the request body's bytes (what XMLHttpRequest's upload progress
// counts, read by wrapping XMLHttpRequest.prototype.send in the page), the time from pressing Send to the
// reference showing, the distinct aria-valuenow values the progress bar took (a MutationObserver in the
// page), the tries, the bytes on the wire (counted by the forwarder), and what the site stored
// (enquiries, photos, notification .eml files).
// Targets: body at most 20% of the photos' bytes; reference within 1.3 x (body / uplink) + 2 s on an
// undisturbed connection; after a drop, one enquiry with all three photos and one notification.
// Exits non-zero when a target is missed. Not a test: the times depend on the machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { BUILD_TIME_VARIABLES } from '../../server/base/config.mjs';
import { ensureBuild } from '../site/ensure-build.mjs';
import { chromiumArgs, chromiumPath } from '../support/chromium';
import { startSiteServer, type SiteServer } from '../support/site-server';
import { phonePhoto, withPhoneExif } from './support/phone-photos';

const { values } = parseArgs({
  options: {
    // Beside the browser tests' ports (3100-4027 with the same TEST_PORT_OFFSET), never on them.
    port: { type: 'string', default: String(3980 + Number(process.env.TEST_PORT_OFFSET ?? 0)) },
    'dist-dir': { type: 'string', default: '.next-bench' },
    cases: { type: 'string', default: '' },
    // Each case is given up after this many seconds; the whole run after the sum plus 5 minutes.
    'case-timeout': { type: 'string', default: '300' },
    // Keep the temporary folder (database, outbox, server log, photos) for a look afterwards.
    keep: { type: 'boolean', default: false },
    // Print what the forwarder sees: each connection, its first request line, bytes, cuts and refusals.
    verbose: { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
const distDir = values['dist-dir'];
const caseTimeoutMs = Number(values['case-timeout']) * 1000;
const base = `http://127.0.0.1:${port}`;
// The browser reaches the site through the forwarder below, on the next port.
const browserBase = `http://127.0.0.1:${port + 1}`;
const PHOTO_COUNT = 3;
const DROP_MS = 2_000;

type Network = { label: string; latencyMs: number; downBitsPerSecond: number; upBitsPerSecond: number };
const PHONE: Network = { label: '750 kbit/s up', latencyMs: 150, downBitsPerSecond: 1_600_000, upBitsPerSecond: 750_000 };
const ONE_BAR: Network = { label: '320 kbit/s up', latencyMs: 150, downBitsPerSecond: 1_600_000, upBitsPerSecond: 320_000 };

/** `mid-send`: offline for 2 s once half the body is up; `answer`: offline for 2 s once all of it is (the answer is lost). */
type Drop = 'none' | 'mid-send' | 'answer';
type Case = { id: string; network: Network; drop: Drop };
const ALL_CASES: Case[] = [
  { id: 'phone', network: PHONE, drop: 'none' },
  { id: 'one-bar', network: ONE_BAR, drop: 'none' },
  { id: 'phone-dropped', network: PHONE, drop: 'mid-send' },
  { id: 'one-bar-dropped', network: ONE_BAR, drop: 'mid-send' },
  { id: 'phone-answer-lost', network: PHONE, drop: 'answer' },
];
const wanted = values.cases ? values.cases.split(',').map((id) => id.trim()) : ALL_CASES.map((entry) => entry.id);
const unknown = wanted.filter((id) => !ALL_CASES.some((entry) => entry.id === id));
if (unknown.length > 0) {
  console.error(`Unknown case ${unknown.join(', ')}; the cases are ${ALL_CASES.map((entry) => entry.id).join(', ')}.`);
  process.exit(2);
}
const cases = ALL_CASES.filter((entry) => wanted.includes(entry.id));

// The embedded defaults: no reCAPTCHA key, no CRM, no other API host, no test faults.
const buildSettings = Object.fromEntries(BUILD_TIME_VARIABLES.map((name) => [name, ''])) as Record<string, string>;
const siteEnv: NodeJS.ProcessEnv = { ...process.env, ...buildSettings, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Everything this run starts, so that any way out (an error, a time-out, Ctrl-C) stops it.
let server: SiteServer | undefined;
let forwarder: Forwarder | undefined;
let browser: Browser | undefined;
let work: string | undefined;

async function stopAll() {
  await browser?.close().catch(() => undefined);
  browser = undefined;
  await forwarder?.close();
  forwarder = undefined;
  await server?.stop('SIGTERM', { killAfterMs: 15_000 });
  server = undefined;
  if (work && !values.keep) rmSync(work, { recursive: true, force: true, maxRetries: 3 });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and the browser.`);
    void stopAll().finally(() => process.exit(130));
  });
}

type Forwarder = {
  /** Bytes the browser has sent since the count was last reset. */
  sentBytes: () => number;
  resetCount: () => void;
  /** Cuts every connection now (a TCP reset towards the browser) and refuses new ones for `ms`: no signal. */
  dropAll: (ms: number) => void;
  /** The next answer on a connection that carried the enquiry is swallowed, that connection reset and new ones refused for `ms`. */
  loseNextAnswer: (ms: number) => void;
  answersLost: () => number;
  close: () => Promise<void>;
};

/**
 * A TCP forwarder between the browser and the site. DevTools' offline emulation does not end a request
 * already under way (Chromium 156 finished it, unthrottled, once back online), so the dropped connection
 * is made here instead: both sockets closed, the browser's with a reset. New connections are refused for
 * the outage too: Chromium sends a request again by itself, unseen by the page, when a reused connection
 * is reset before the answer, and without the refusal that copy would go through at once.
 */
function startForwarder(listenPort: number, targetPort: number): Promise<Forwarder> {
  const pairs = new Set<{ client: Socket; upstream: Socket; carriesEnquiry: boolean }>();
  let sent = 0;
  let armed = false;
  let outageMs = 0;
  let refuseUntil = 0;
  let lost = 0;
  const cut = (pair: { client: Socket; upstream: Socket }) => {
    pair.client.resetAndDestroy();
    pair.upstream.destroy();
  };
  let connections = 0;
  const note = (text: string) => {
    if (values.verbose) console.log(`  [forwarder ${new Date().toISOString().slice(11, 23)}] ${text}`);
  };
  const listener: Server = createServer((client) => {
    if (Date.now() < refuseUntil) {
      note('new connection refused (outage)');
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const id = (connections += 1);
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream, carriesEnquiry: false };
    pairs.add(pair);
    let up = 0;
    let down = 0;
    client.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      up += chunk.length;
      const head = chunk.subarray(0, 40).toString('latin1');
      if (/^[A-Z]+ \//.test(head)) note(`#${id} ${head.split('\r\n')[0]}`);
      if (head.startsWith('POST /api/contact')) pair.carriesEnquiry = true;
    });
    upstream.on('data', (chunk: Buffer) => {
      down += chunk.length;
    });
    client.on('close', () => note(`#${id} closed: ${up} bytes up, ${down} down`));
    upstream.on('error', (error) => note(`#${id} site connection: ${error.message}`));
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (armed && pair.carriesEnquiry) {
        armed = false;
        lost += 1;
        refuseUntil = Date.now() + outageMs;
        note(`#${id} answer swallowed, connection reset`);
        cut(pair);
        return;
      }
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
    upstream.on('end', () => client.end());
    const forget = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget);
    upstream.on('close', forget);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(listenPort, '127.0.0.1', () =>
      resolve({
        sentBytes: () => sent,
        resetCount: () => {
          sent = 0;
        },
        dropAll: (ms) => {
          refuseUntil = Date.now() + ms;
          note(`cutting ${pairs.size} connections; refusing new ones for ${ms} ms`);
          [...pairs].forEach(cut);
        },
        loseNextAnswer: (ms) => {
          outageMs = ms;
          armed = true;
        },
        answersLost: () => lost,
        close: () =>
          new Promise<void>((done) => {
            [...pairs].forEach(cut);
            listener.close(() => done());
          }),
      }),
    );
  });
}

async function startSite(folder: string): Promise<SiteServer> {
  server = await startSiteServer({
    port,
    env: {
      ...siteEnv,
      DATABASE_URL: `file:${path.join(folder, 'site.db')}`,
      ENQUIRY_OUTBOX_DIR: path.join(folder, 'outbox'),
      ENQUIRY_PHOTOS_DIR: path.join(folder, 'enquiry-photos'),
      ENQUIRY_POLL_SECONDS: '1',
      SMTP_URL: '',
      RECAPTCHA_PROJECT_ID: '',
      RECAPTCHA_API_KEY: '',
      CONTACT_RATE_LIMIT: '1000',
    },
    readyPath: '/contact',
    logFile: path.join(folder, 'server.log'),
  });
  return server;
}

/** What the page records (installed before any of its scripts run). */
type Attempt = {
  startedAt: number;
  total: number | null;
  loaded: number;
  photoBytes: number;
  uploadedAt: number | null;
  endedAt: number | null;
  status: number | null;
};
type PageRecord = {
  attempts: Attempt[];
  progressValues: string[];
  progressChanges: number;
  firstProgressAt: number | null;
  prepared: number;
  pressAt: number | null;
  referenceAt: number | null;
  reference: string | null;
  alert: string | null;
  alertAt: number | null;
};

function instrument() {
  const record: PageRecord = {
    attempts: [],
    progressValues: [],
    progressChanges: 0,
    firstProgressAt: null,
    prepared: 0,
    pressAt: null,
    referenceAt: null,
    reference: null,
    alert: null,
    alertAt: null,
  };
  const signal = (kind: string, attempt: number) =>
    (window as unknown as { benchSignal?: (kind: string, attempt: number) => void }).benchSignal?.(kind, attempt);
  (window as unknown as { bench: PageRecord }).bench = record;

  // The form prepares each photo by drawing it on a canvas and writing a JPEG (lib/photo-downscale.ts).
  const toBlob = HTMLCanvasElement.prototype.toBlob;
  HTMLCanvasElement.prototype.toBlob = function (callback, ...rest) {
    return toBlob.call(
      this,
      (blob) => {
        record.prepared += 1;
        callback(blob);
      },
      ...rest,
    );
  };

  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest & { benchUrl?: string }, ...args: Parameters<XMLHttpRequest['open']>) {
    this.benchUrl = String(args[1]);
    return open.apply(this, args);
  } as XMLHttpRequest['open'];
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest & { benchUrl?: string }, body) {
    if (this.benchUrl?.includes('/api/contact')) {
      const attempt: Attempt = {
        startedAt: performance.now(),
        total: null,
        loaded: 0,
        photoBytes: 0,
        uploadedAt: null,
        endedAt: null,
        status: null,
      };
      if (body instanceof FormData) for (const [, value] of body.entries()) if (value instanceof Blob) attempt.photoBytes += value.size;
      const index = record.attempts.push(attempt) - 1;
      let half = false;
      this.upload.addEventListener('progress', (event) => {
        attempt.loaded = event.loaded;
        if (event.lengthComputable) attempt.total = event.total;
        if (!half && event.lengthComputable && event.loaded >= event.total / 2) {
          half = true;
          signal('half', index);
        }
      });
      this.upload.addEventListener('load', () => {
        attempt.uploadedAt = performance.now();
        signal('uploaded', index);
      });
      this.addEventListener('loadend', () => {
        attempt.endedAt = performance.now();
        attempt.status = this.status;
      });
    }
    return send.call(this, body);
  };

  document.addEventListener(
    'click',
    (event) => {
      if (record.pressAt === null && (event.target as Element | null)?.closest?.('button[type="submit"]'))
        record.pressAt = performance.now();
    },
    true,
  );

  let last: string | null = null;
  const seen = new Set<string>();
  const look = () => {
    const bar = document.querySelector('[role="progressbar"]');
    const now = bar?.getAttribute('aria-valuenow') ?? null;
    if (now !== null && now !== last) {
      record.progressChanges += 1;
      record.firstProgressAt ??= performance.now();
      if (!seen.has(now)) {
        seen.add(now);
        record.progressValues.push(now);
      }
    }
    last = now;
    const reference = document.querySelector('[data-testid="enquiry-reference"] strong');
    if (reference && record.referenceAt === null) {
      record.referenceAt = performance.now();
      record.reference = reference.textContent;
    }
    const alert = document.querySelector('form [role="alert"]')?.textContent?.trim();
    if (alert) {
      record.alert = alert;
      record.alertAt ??= performance.now();
    }
  };
  new MutationObserver(look).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['aria-valuenow'],
  });
}

const readRecord = (page: Page) => page.evaluate(() => (window as unknown as { bench: PageRecord }).bench);

function conditions(network: Network, offline = false) {
  return {
    offline,
    latency: network.latencyMs,
    downloadThroughput: network.downBitsPerSecond / 8,
    uploadThroughput: network.upBitsPerSecond / 8,
  };
}

type Stored = {
  enquiries: number;
  photos: number[];
  photosDropped: number;
  notificationJobs: number;
  notificationMails: number;
  attachedPhotos: number[];
};
type Result = {
  entry: Case;
  subject: string;
  photoBytes: number;
  bodyBytes: number | null;
  preparedPhotoBytes: number | null;
  /** What the browser sent to the site from pressing Send on, every try and header included. */
  wireBytes: number;
  answerLost: boolean;
  seconds: number | null;
  firstProgressSeconds: number | null;
  progressValues: string[];
  progressChanges: number;
  attempts: { status: number | null; loaded: number; total: number | null }[];
  reference: string | null;
  problem: string | null;
  dropAtSeconds: number | null;
  stored: Stored;
};

/** The Subject header, unfolded. */
function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '';
}

/** The notification .eml files for `subject` (not the visitor's acknowledgement), with the photos each attaches. */
function notificationMails(folder: string, subject: string): { attached: number }[] {
  const outbox = path.join(folder, 'outbox');
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.startsWith('enquiry-') && name.endsWith('.eml'))
    .map((name) => readFileSync(path.join(outbox, name), 'latin1'))
    .filter((raw) => subjectOf(raw).endsWith(`: ${subject}`))
    .map((raw) => ({ attached: new Set(raw.match(/filename="?photo-\d+\.jpg/g) ?? []).size }));
}

async function storedFor(folder: string, subject: string): Promise<Stored> {
  const db = createClient({ url: `file:${path.join(folder, 'site.db')}` });
  try {
    const rows = (await db.execute({ sql: 'SELECT id, photos_dropped FROM enquiries WHERE subject = ?', args: [subject] })).rows;
    const photos: number[] = [];
    let photosDropped = 0;
    let notificationJobs = 0;
    for (const row of rows) {
      const id = Number(row.id);
      photos.push(
        Number((await db.execute({ sql: 'SELECT count(*) AS n FROM enquiry_photos WHERE enquiry_id = ?', args: [id] })).rows[0]?.n),
      );
      photosDropped += Number(row.photos_dropped);
      notificationJobs += Number(
        (
          await db.execute({
            sql: "SELECT count(*) AS n FROM enquiry_notifications WHERE enquiry_id = ? AND kind = 'notification'",
            args: [id],
          })
        ).rows[0]?.n,
      );
    }
    const mails = notificationMails(folder, subject);
    return {
      enquiries: rows.length,
      photos,
      photosDropped,
      notificationJobs,
      notificationMails: mails.length,
      attachedPhotos: mails.map((mail) => mail.attached),
    };
  } finally {
    db.close();
  }
}

async function runCase(entry: Case, photoFiles: string[], photoBytes: number, folder: string): Promise<Result> {
  const subject = `Phone bench ${entry.id} ${Date.now()}`;
  let context: BrowserContext | undefined;
  let cdp: CDPSession | undefined;
  let dropAt: number | null = null;
  let dropping: Promise<void> = Promise.resolve();
  try {
    context = await browser!.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    // tsx keeps function names with esbuild's __name helper, which the page does not have.
    await page.addInitScript({ content: `var __name = (target) => target; (${instrument.toString()})();` });
    const startedAt = Date.now();
    cdp = await context.newCDPSession(page);
    const session = cdp;
    await page.exposeFunction('benchSignal', (kind: string, attempt: number) => {
      const trigger = entry.drop === 'mid-send' ? 'half' : entry.drop === 'answer' ? 'uploaded' : null;
      if (kind !== trigger || attempt !== 0 || dropAt !== null) return;
      dropAt = Date.now();
      if (entry.drop === 'answer') {
        // The site receives the whole enquiry and answers; the phone never hears.
        forwarder!.loseNextAnswer(DROP_MS);
        return;
      }
      // The connection goes first (offline emulation alone would let the request run on, unthrottled),
      // then the phone notices it has no signal (navigator.onLine turns false).
      forwarder!.dropAll(DROP_MS);
      dropping = (async () => {
        await session.send('Network.emulateNetworkConditions', conditions(entry.network, true));
        await sleep(DROP_MS);
        await session.send('Network.emulateNetworkConditions', conditions(entry.network));
      })();
    });
    // Once more if the first load fails: a connection Chromium kept from the case before may have closed under it.
    await page.goto(`${browserBase}/contact`).catch(async () => {
      await sleep(1_000);
      await page.goto(`${browserBase}/contact`);
    });
    const form = page.getByRole('form', { name: 'Send us a message' });
    await form.getByLabel(/^Name/).fill('Jo Bloggs');
    await form.getByLabel(/^Email/).fill('jo@example.com');
    await form.getByLabel(/^Subject/).fill(subject);
    await form.getByLabel(/^Message/).fill('Water came through the kitchen ceiling overnight; three photos of the damage attached.');
    await form.getByLabel('This is about an insurance claim').check();
    await form.getByLabel('Who is getting in touch').selectOption('homeowner');
    await form.getByLabel('Type of damage').selectOption('water-damage');
    await form.getByLabel('Postcode of the property').fill('G67 1AB');
    await form.getByLabel('Photos of the damage (optional)').setInputFiles(photoFiles);
    await form
      .getByRole('list', { name: 'Photos to send' })
      .getByRole('listitem')
      .nth(PHOTO_COUNT - 1)
      .waitFor();
    // The photos are prepared (downscaled) as soon as they are chosen, while a visitor would still be typing.
    const preparedBy = Date.now() + 60_000;
    while ((await readRecord(page)).prepared < PHOTO_COUNT && Date.now() < preparedBy) await sleep(200);

    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', conditions(entry.network));
    forwarder!.resetCount();
    const answersLostBefore = forwarder!.answersLost();
    await form.getByRole('button', { name: 'Send message' }).click();

    const giveUpAt = startedAt + caseTimeoutMs;
    let record = await readRecord(page);
    let problem: string | null = null;
    for (;;) {
      record = await readRecord(page);
      if (record.referenceAt !== null) break;
      if (record.alert) {
        const after =
          record.alertAt !== null && record.pressAt !== null
            ? ` ${((record.alertAt - record.pressAt) / 1000).toFixed(1)} s after Send`
            : '';
        problem = `the form said${after}: ${record.alert}`;
        break;
      }
      if (Date.now() > giveUpAt) {
        const retry = (
          await form
            .getByTestId('send-retry')
            .textContent({ timeout: 1_000 })
            .catch(() => null)
        )?.trim();
        problem = `no reference within ${caseTimeoutMs / 1000} s${retry ? ` (the form said: ${retry})` : ''}`;
        break;
      }
      await sleep(250);
    }
    await dropping;
    const wireBytes = forwarder!.sentBytes();
    const answerLost = forwarder!.answersLost() > answersLostBefore;
    const succeeded = record.attempts.at(-1);
    const reference = record.reference?.trim() ?? null;

    // The notification is written within a second or two; then a moment more, so that a duplicate would show.
    const mailBy = Date.now() + 20_000;
    while (reference && notificationMails(folder, subject).length === 0 && Date.now() < mailBy) await sleep(500);
    await sleep(2_500);

    return {
      entry,
      subject,
      photoBytes,
      bodyBytes: succeeded?.total ?? null,
      preparedPhotoBytes: succeeded?.photoBytes ?? null,
      wireBytes,
      answerLost,
      seconds: record.referenceAt !== null && record.pressAt !== null ? (record.referenceAt - record.pressAt) / 1000 : null,
      firstProgressSeconds:
        record.firstProgressAt !== null && record.pressAt !== null ? (record.firstProgressAt - record.pressAt) / 1000 : null,
      progressValues: record.progressValues,
      progressChanges: record.progressChanges,
      attempts: record.attempts.map((attempt) => ({ status: attempt.status, loaded: attempt.loaded, total: attempt.total })),
      reference,
      problem,
      dropAtSeconds: dropAt !== null ? (dropAt - startedAt) / 1000 : null,
      stored: await storedFor(folder, subject),
    };
  } finally {
    await cdp?.detach().catch(() => undefined);
    await context?.close().catch(() => undefined);
  }
}

/** A case that could not be run to the end (the page did not load, the browser failed). */
function failedResult(entry: Case, photoBytes: number, error: unknown): Result {
  return {
    entry,
    subject: '',
    photoBytes,
    bodyBytes: null,
    preparedPhotoBytes: null,
    wireBytes: 0,
    answerLost: false,
    seconds: null,
    firstProgressSeconds: null,
    progressValues: [],
    progressChanges: 0,
    attempts: [],
    reference: null,
    problem: `not run to the end: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    dropAtSeconds: null,
    stored: { enquiries: 0, photos: [], photosDropped: 0, notificationJobs: 0, notificationMails: 0, attachedPhotos: [] },
  };
}

const MB = 1_000_000;
const mb = (bytes: number | null) => (bytes === null ? '-' : (bytes / MB).toFixed(2));
const secondsText = (value: number | null) => (value === null ? '-' : value.toFixed(1));

/** The time the target allows: 1.3 x the body's time at the uplink's rate, plus 2 s. */
const allowedSeconds = (result: Result) =>
  result.bodyBytes === null ? null : (1.3 * result.bodyBytes * 8) / result.entry.network.upBitsPerSecond + 2;

function checks(result: Result): { label: string; pass: boolean; detail: string }[] {
  const { entry, stored } = result;
  const out: { label: string; pass: boolean; detail: string }[] = [];
  const share = result.bodyBytes === null ? null : result.bodyBytes / result.photoBytes;
  out.push({
    label: `${entry.id}: bytes sent at most 20% of the photos'`,
    pass: share !== null && share <= 0.2,
    detail:
      share === null ? 'no body measured' : `${mb(result.bodyBytes)} MB of ${mb(result.photoBytes)} MB = ${(share * 100).toFixed(1)}%`,
  });
  if (entry.drop === 'none') {
    const allowed = allowedSeconds(result);
    out.push({
      label: `${entry.id}: reference within 1.3 x (bytes sent / uplink) + 2 s`,
      pass: result.seconds !== null && allowed !== null && result.seconds <= allowed,
      detail:
        result.seconds === null
          ? (result.problem ?? 'no reference')
          : `${secondsText(result.seconds)} s, allowed ${secondsText(allowed)} s`,
    });
  } else {
    const one = stored.enquiries === 1 && stored.photos[0] === PHOTO_COUNT && stored.notificationMails === 1;
    out.push({
      label: `${entry.id}: one enquiry with all ${PHOTO_COUNT} photos and one notification`,
      pass: result.reference !== null && one,
      detail: `${stored.enquiries} enquiries (photos ${stored.photos.join('/') || '-'}), ${stored.notificationMails} notifications, ${result.attempts.length} tries, reference ${result.reference ?? 'not shown'}`,
    });
  }
  if (entry.drop === 'none') {
    out.push({
      label: `${entry.id}: one enquiry with all ${PHOTO_COUNT} photos and one notification`,
      pass: result.reference !== null && stored.enquiries === 1 && stored.photos[0] === PHOTO_COUNT && stored.notificationMails === 1,
      detail: `${stored.enquiries} enquiries (photos ${stored.photos.join('/') || '-'}), ${stored.notificationMails} notifications`,
    });
  }
  return out;
}

/** Whether the drop happened: the connections were cut mid-send, or an answer was swallowed. */
const dropHit = (result: Result) => (result.entry.drop === 'answer' ? result.answerLost : result.dropAtSeconds !== null);

function printTable(results: Result[]) {
  const header = [
    'case',
    'uplink',
    'drop',
    'photos MB',
    'sent MB',
    'sent %',
    'on wire MB',
    'time s',
    'allowed s',
    'progress values',
    'tries',
    'enquiries',
    'photos kept',
    'notifications',
  ];
  const rows = results.map((result) => [
    result.entry.id,
    result.entry.network.label,
    result.entry.drop === 'none' ? '-' : `${result.entry.drop}${dropHit(result) ? '' : ' (not hit)'}`,
    mb(result.photoBytes),
    mb(result.bodyBytes),
    result.bodyBytes === null ? '-' : ((result.bodyBytes / result.photoBytes) * 100).toFixed(1),
    mb(result.wireBytes),
    secondsText(result.seconds),
    result.entry.drop === 'none' ? secondsText(allowedSeconds(result)) : '-',
    String(result.progressValues.length),
    `${result.attempts.length} (${result.attempts.map((attempt) => attempt.status || 'lost').join(',')})`,
    String(result.stored.enquiries),
    result.stored.photos.join('/') || '-',
    String(result.stored.notificationMails),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  console.log('\nin Markdown:\n');
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

async function main(): Promise<boolean> {
  work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-phone-'));
  const exiftool = spawnSync('exiftool', ['-ver'], { encoding: 'utf8' }).status === 0;
  console.log(`== ${PHOTO_COUNT} phone photos (4032x3024 JPEG${exiftool ? ', with EXIF and GPS' : '; exiftool missing, so without EXIF'})`);
  const photoFiles: string[] = [];
  let photoBytes = 0;
  for (let index = 1; index <= PHOTO_COUNT; index += 1) {
    const plain = await phonePhoto(100 + index);
    const photo = exiftool ? withPhoneExif(plain) : plain;
    const file = path.join(work, `IMG_${4000 + index}.jpg`);
    writeFileSync(file, photo);
    photoFiles.push(file);
    photoBytes += photo.length;
    console.log(`${path.basename(file)}  ${mb(photo.length)} MB`);
  }

  console.log(`== The site (${distDir}) on ${base}; its database, outbox and log in ${work}`);
  await startSite(work);
  forwarder = await startForwarder(port + 1, port);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs],
  });
  console.log(`Chromium ${browser.version()}`);

  const results: Result[] = [];
  for (const entry of cases) {
    const drop =
      entry.drop === 'none'
        ? ''
        : entry.drop === 'mid-send'
          ? ', offline and every connection cut for 2 s at half the body'
          : ', the answer to the first try lost (connections refused for 2 s)';
    console.log(
      `\n== ${entry.id}: ${entry.network.latencyMs} ms, ${entry.network.downBitsPerSecond / 1000} kbit/s down, ${entry.network.label}${drop}`,
    );
    if (!server?.running()) {
      console.log(
        `The site has stopped (exit ${server?.child.exitCode ?? server?.child.signalCode}); see ${path.join(work, 'server.log')} (--keep keeps it).`,
      );
      break;
    }
    let result: Result;
    try {
      result = await runCase(entry, photoFiles, photoBytes, work);
    } catch (error) {
      console.log(`FAILED to run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      result = failedResult(entry, photoBytes, error);
    }
    results.push(result);
    const attempts = result.attempts
      .map((attempt) => `${mb(attempt.loaded)}/${mb(attempt.total)} MB -> ${attempt.status || 'lost'}`)
      .join('; ');
    console.log(`tries          ${attempts}`);
    if (entry.drop !== 'none' && dropHit(result)) {
      console.log(
        `dropped        ${entry.drop === 'answer' ? 'the answer to the first try' : 'offline and every connection cut for 2 s'}, ${result.dropAtSeconds!.toFixed(1)} s after the page was opened`,
      );
    } else if (entry.drop !== 'none') console.log('dropped        never: the moment to drop did not come (or the answer came first)');
    console.log(
      `sent           ${mb(result.bodyBytes)} MB body (${mb(result.preparedPhotoBytes)} MB of it the prepared photos) for ${mb(photoBytes)} MB of photos; ${mb(result.wireBytes)} MB on the wire in all`,
    );
    console.log(
      `reference      ${result.reference ?? '-'} after ${secondsText(result.seconds)} s${result.problem ? `; ${result.problem}` : ''}`,
    );
    console.log(
      `progress       ${result.progressValues.length} distinct values (${result.progressChanges} changes), first after ${secondsText(result.firstProgressSeconds)} s: ${result.progressValues.join(' ')}`,
    );
    const { stored } = result;
    console.log(
      `stored         ${stored.enquiries} enquiries, photos ${stored.photos.join('/') || '-'}${stored.photosDropped ? ` (${stored.photosDropped} dropped)` : ''}, ${stored.notificationJobs} notification jobs, ${stored.notificationMails} notification mails (photos attached: ${stored.attachedPhotos.join('/') || '-'})`,
    );
  }

  printTable(results);
  console.log('');
  let passed = true;
  for (const check of results.flatMap(checks)) {
    console.log(`${check.pass ? 'PASS' : 'FAIL'}  ${check.label}: ${check.detail}`);
    passed &&= check.pass;
  }
  return passed;
}

ensureBuild(distDir, siteEnv);
// The whole run is bounded: every case's time-out, plus the photos and starting up.
const watchdog = setTimeout(
  () => {
    console.error('The bench ran past its time limit: stopping.');
    void stopAll().finally(() => process.exit(1));
  },
  cases.length * caseTimeoutMs + 5 * 60_000,
);
let passed = false;
try {
  passed = await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
} finally {
  clearTimeout(watchdog);
  if (work && values.keep) console.log(`Kept ${work}`);
  await stopAll();
}
process.exit(passed ? 0 : 1);
