// `npm run bench:contact [-- --connections 20 --amount 2000 --faults 60 --pairs 1 --on-first]`: two runs against the production
// build (built the way `npm run build` does when there is none), each with its own database:
//   1. throughput: concurrent submissions to POST /api/contact (autocannon); prints accepted enquiries per
//      second, the server's CPU time per accepted enquiry during the run, and latency, and checks the
//      database holds exactly one row per 201 answer; text only with the CRM's webhooks off, then on (a fake CRM checking each signature, which must hear of every
//      accepted enquiry once), side by side, then with photos;
//   2. faults: enquiries while the SMTP server is stopped and started again, and while the site's
//      process is restarted mid-run (SIGTERM, then SIGKILL); prints accepted, delivered, lost and
//      duplicated per phase.
// Exits non-zero when stored rows differ from 201s, when an accepted enquiry is lost, when any duplicate
// arrives in the SMTP-outage or SIGTERM phases, or when a SIGKILL duplicate carries a different Message-ID
// (a kill between the relay's acceptance and the database's record is the one window SMTP cannot close;
// the stable Message-ID lets mail systems drop the copy). Not a test: the figures depend on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createClient } from '@libsql/client';
import { UPLOAD_SLOTS } from '../../lib/enquiry-rules.mjs';
import { phonePhoto } from './support/phone-photos';
import { processCpuMs } from './support/process-cpu';
import { startSmtpServer, type ReceivedMail } from '../support/smtp-server';
import { ensureBuild } from '../site/ensure-build.mjs';
import { startSiteServer } from '../support/site-server';
import { startWebhookReceiver, testWebhookSecret } from '../../tests/support/webhook-receiver';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '20' },
    // A fixed number of requests (not a duration), so every one is answered before counting.
    amount: { type: 'string', default: '2000' },
    // Enquiries per fault phase.
    faults: { type: 'string', default: '60' },
    port: { type: 'string', default: '3990' },
    'dist-dir': { type: 'string', default: '.next' },
    'skip-throughput': { type: 'boolean', default: false },
    'skip-faults': { type: 'boolean', default: false },
    // The run with photos: photos per enquiry (0 skips it) and how many enquiries.
    photos: { type: 'string', default: '3' },
    'photo-amount': { type: 'string', default: '100' },
    // Text-only runs with the CRM's webhooks off and on: how many pairs. The pairs alternate their
    // order (off-on, on-off, …), so a machine that drifts during the bench favours neither.
    pairs: { type: 'string', default: '1' },
    // The first pair on-off (then off-on, …), for a run whose positions mirror the default's.
    'on-first': { type: 'boolean', default: false },
  },
});
const photosPerEnquiry = Number(values.photos);
const photoAmount = Number(values['photo-amount']);
const connections = Number(values.connections);
const amount = Number(values.amount);
const pairs = Math.max(1, Number(values.pairs) || 1);
/** Whether the pair (from 0) runs with the webhooks on first: every other one, from the first with --on-first. */
const onFirst = (pair: number) => (pair + (values['on-first'] ? 1 : 0)) % 2 === 1;
const perPhase = Number(values.faults);
const port = Number(values.port);
const distDir = values['dist-dir'];
const base = `http://127.0.0.1:${port}`;

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
ensureBuild(distDir);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts server.mjs on the bench port with `env`, its output appended to `logFile`; resolves once it serves pages. */
const startSite = (env: Record<string, string>, logFile: string) => startSiteServer({ port, distDir, env, logFile, readyPath: '/contact' });

const enquiry = (subject: string) => ({
  name: 'Bench Mark',
  email: 'bench@example.com',
  phone: '',
  subject,
  message: `${subject}: an enquiry from the contact benchmark. Water is coming in.`,
});

/** cpuMsPerAccepted: the server's CPU time during the run over its 201s; undefined where /proc is missing. */
type RunFigures = { label: string; acceptedPerSecond: number; cpuMsPerAccepted: number | undefined; p50: number; p99: number };
const figures: RunFigures[] = [];

/** A multipart body as the form sends it with photos: the fields, then each photo as a `photos` file part. */
function multipartBody(fields: Record<string, string>, photos: readonly Buffer[], boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  photos.forEach((photo, index) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="IMG_${index + 1}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      photo,
      Buffer.from('\r\n'),
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * Concurrent submissions: text-only JSON, or multipart with `photos` phone photos each as the form sends
 * them (redrawn at 2048 px as JPEG by the browser, about 0.5-1 MB). A photo run uses at most
 * UPLOAD_SLOTS.total connections, the uploads the server takes at once (more would be 503s).
 */
async function throughputRun(options: { photos: number; webhooks?: boolean }): Promise<boolean> {
  const withPhotos = options.photos > 0;
  const runConnections = withPhotos ? Math.min(connections, UPLOAD_SLOTS.total) : connections;
  const runAmount = withPhotos ? photoAmount : amount;
  const photo = withPhotos ? await phonePhoto(7, { width: 2048, height: 1536 }) : Buffer.alloc(0);
  const boundary = '----homecare-bench-boundary';
  // Its own database and outbox, so the bench never touches the site's data.
  const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-'));
  const databaseUrl = `file:${path.join(work, 'bench.db')}`;
  // With webhooks on: the company's CRM as a fake that checks every signature.
  const receiver = options.webhooks ? await startWebhookReceiver() : null;
  const server = await startSite(
    {
      DATABASE_URL: databaseUrl,
      ENQUIRY_OUTBOX_DIR: path.join(work, 'outbox'),
      ENQUIRY_PHOTOS_DIR: path.join(work, 'photos'),
      SMTP_URL: '',
      RECAPTCHA_PROJECT_ID: '',
      RECAPTCHA_API_KEY: '',
      CONTACT_RATE_LIMIT: '1000000',
      CRM_WEBHOOK_URL: receiver?.url ?? '',
      CRM_WEBHOOK_SECRET: receiver ? testWebhookSecret : '',
      ENQUIRY_POLL_SECONDS: '0.5',
    },
    path.join(work, 'server.log'),
  );
  try {
    let counter = 0;
    const label = `${withPhotos ? `with ${options.photos} photos of ${(photo.length / 1_000_000).toFixed(1)} MB` : 'text only'}, webhooks ${receiver ? 'on' : 'off'}`;
    console.log(`\n== Throughput (${label}): POST ${base}/api/contact, ${runAmount} submissions over ${runConnections} connections`);
    // server.pid is node running server.mjs itself (spawned directly, no shell or npm between); its
    // one child, tsx's esbuild service, works only while the server starts, and is counted anyway.
    const cpuBefore = processCpuMs(server.pid);
    const result = await autocannon({
      url: base,
      connections: runConnections,
      amount: runAmount,
      // autocannon notices the last answer only at its next sample: every second by default, which
      // rounds a 25 s run's duration up by as much as 4%; every 100 ms, by at most 0.4%.
      sampleInt: 100,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          path: '/api/contact',
          headers: { 'content-type': withPhotos ? `multipart/form-data; boundary=${boundary}` : 'application/json' },
          setupRequest: (request) => {
            counter += 1;
            const fields = enquiry(`Benchmark enquiry ${counter}`);
            const body = withPhotos
              ? multipartBody(
                  fields,
                  Array.from({ length: options.photos }, () => photo),
                  boundary,
                )
              : JSON.stringify(fields);
            // autocannon writes a Buffer body as it is (lib/httpRequestBuilder.js); its types only say string.
            return { ...request, body: body as string };
          },
        },
      ],
    });
    const cpuAfter = processCpuMs(server.pid);
    const accepted = result.statusCodeStats['201']?.count ?? 0;
    const cpuMsPerAccepted =
      cpuBefore === undefined || cpuAfter === undefined || accepted === 0 ? undefined : (cpuAfter - cpuBefore) / accepted;
    const db = createClient({ url: databaseUrl });
    const stored = Number((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n);
    const jobs = Number((await db.execute("SELECT count(*) AS n FROM enquiry_notifications WHERE kind = 'notification'")).rows[0]?.n);
    const photoRows = Number((await db.execute('SELECT count(*) AS n FROM enquiry_photos')).rows[0]?.n);
    db.close();
    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}: ${count}`)
      .join(', ');
    console.log(`responses      ${result.requests.total} (${statuses}); errors ${result.errors}, timeouts ${result.timeouts}`);
    console.log(`accepted/s     ${(accepted / (result.duration || 1)).toFixed(1)}`);
    console.log(
      cpuMsPerAccepted === undefined
        ? `server CPU     unavailable (no /proc/${server.pid}/stat here, or nothing accepted)`
        : `server CPU     ${cpuMsPerAccepted.toFixed(2)} ms per accepted enquiry`,
    );
    console.log(`latency        p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`stored rows    ${stored} enquiries, ${jobs} notification jobs, ${photoRows} photos, for ${accepted} accepted answers`);
    figures.push({
      label,
      acceptedPerSecond: accepted / (result.duration || 1),
      cpuMsPerAccepted,
      p50: result.latency.p50,
      p99: result.latency.p99,
    });
    if (stored !== accepted || jobs !== accepted || photoRows !== accepted * options.photos) {
      console.error('MISMATCH: stored rows differ from accepted responses.');
      return false;
    }
    if (receiver) {
      // Every accepted enquiry reaches the CRM once, signed (the worker goes on delivering after the run).
      const runEnded = Date.now();
      const heardDuringRun = new Set(receiver.received.map((event) => event.id)).size;
      const deadline = runEnded + 300_000;
      while (new Set(receiver.received.map((event) => event.id)).size < accepted && Date.now() < deadline) await sleep(200);
      const ids = new Set(receiver.received.map((event) => event.id));
      const unsigned = receiver.received.filter((event) => !event.signed).length;
      console.log(
        `webhooks       ${ids.size} events for ${accepted} accepted (${receiver.received.length} deliveries, ${unsigned} unsigned); ${heardDuringRun} during the run, the rest within ${((Date.now() - runEnded) / 1000).toFixed(1)} s after it`,
      );
      if (ids.size !== accepted || unsigned > 0) {
        console.error('MISMATCH: the CRM did not hear of every accepted enquiry once, signed.');
        return false;
      }
    }
    console.log(`OK: every accepted enquiry is stored once, with its notification job${withPhotos ? ' and its photos' : ''}.`);
    return true;
  } finally {
    await server.stop();
    await receiver?.close();
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

type Phase = 'smtp-outage' | 'sigterm' | 'sigkill';

async function faultRun(): Promise<boolean> {
  const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-faults-'));
  const logFile = path.join(work, 'server.log');
  const smtpPort = port + 1;
  const received: ReceivedMail[] = [];
  const collect = (smtp: Awaited<ReturnType<typeof startSmtpServer>>) => {
    // Each SMTP server keeps its own list; gather them all.
    const original = smtp.received;
    return {
      ...smtp,
      close: async () => {
        received.push(...original);
        await smtp.close();
      },
    };
  };
  let smtp = collect(await startSmtpServer(smtpPort));
  const env = {
    DATABASE_URL: `file:${path.join(work, 'site.db')}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ENQUIRY_POLL_SECONDS: '0.2',
    // The company's notifications are what this run counts.
    ENQUIRY_ACKNOWLEDGE: 'off',
    RECAPTCHA_PROJECT_ID: '',
    RECAPTCHA_API_KEY: '',
    CONTACT_RATE_LIMIT: '1000000',
  };
  let server = await startSite(env, logFile);
  const accepted = new Map<string, Phase>();
  const shutdownCodes: Partial<Record<Phase, number | null>> = {};
  let refused = 0;
  let retried = 0;

  /** Sends `count` enquiries four at a time; `actions[i]` runs (awaited by one sender) before enquiry i. */
  async function phase(name: Phase, count: number, actions: Record<number, () => Promise<void>>) {
    let next = 0;
    const sender = async () => {
      for (let index = next++; index < count; index = next++) {
        const action = actions[index];
        if (action) await action();
        const subject = `Fault run ${name} ${index + 1}`;
        // Like a visitor whose Send failed while the site restarted: try the same enquiry again for
        // up to 60 s. If the first try was stored but its answer lost, the server stores it once.
        for (let attempt = 1; attempt <= 120; attempt += 1) {
          try {
            const response = await fetch(`${base}/api/contact`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(enquiry(subject)),
              signal: AbortSignal.timeout(15_000),
            });
            if (response.status === 201) accepted.set(subject, name);
            else refused += 1;
            break;
          } catch {
            retried += 1;
            await sleep(500);
          }
        }
      }
    };
    await Promise.all([sender(), sender(), sender(), sender()]);
  }

  const restart = (name: Phase, signal: NodeJS.Signals) => async () => {
    shutdownCodes[name] = await server.stop(signal);
    server = await startSite(env, logFile);
  };

  try {
    console.log(`\n== Faults: ${perPhase} enquiries per phase, SMTP on ${smtpPort} (server log: ${logFile})`);
    const third = Math.floor(perPhase / 3);
    await phase('smtp-outage', perPhase, {
      [third]: async () => {
        await smtp.close();
      },
      [2 * third]: async () => {
        await sleep(2000);
        smtp = collect(await startSmtpServer(smtpPort));
      },
    });
    await phase('sigterm', perPhase, { [Math.floor(perPhase / 2)]: restart('sigterm', 'SIGTERM') });
    await phase('sigkill', perPhase, { [Math.floor(perPhase / 2)]: restart('sigkill', 'SIGKILL') });

    // Wait for delivery: retries after the outage back off from 30 s, and a job whose worker was killed
    // mid-send is taken over when its 2-minute lease runs out.
    const deadline = Date.now() + 5 * 60_000;
    const deliveredSubjects = () => new Set([...received, ...smtp.received].map((mail) => enquirySubjectOf(mail.raw)));
    process.stdout.write('waiting for delivery');
    while (Date.now() < deadline) {
      const delivered = deliveredSubjects();
      if ([...accepted.keys()].every((subject) => delivered.has(subject))) break;
      process.stdout.write('.');
      await sleep(5000);
    }
    process.stdout.write('\n');
    // One more poll interval, so a late duplicate would show.
    await sleep(2000);
  } finally {
    await server.stop();
    await smtp.close();
  }

  const bySubject = new Map<string, string[]>();
  for (const mail of received) {
    const subject = enquirySubjectOf(mail.raw);
    bySubject.set(subject, [...(bySubject.get(subject) ?? []), messageIdOf(mail.raw)]);
  }
  let ok = true;
  console.log('phase          accepted  delivered  lost  duplicated  duplicates with another Message-ID');
  for (const name of ['smtp-outage', 'sigterm', 'sigkill'] as const) {
    const subjects = [...accepted].filter(([, phaseName]) => phaseName === name).map(([subject]) => subject);
    const delivered = subjects.filter((subject) => bySubject.has(subject));
    const lost = subjects.length - delivered.length;
    const duplicated = delivered.filter((subject) => bySubject.get(subject)!.length > 1);
    const foreign = duplicated.filter((subject) => new Set(bySubject.get(subject)).size > 1);
    console.log(
      `${name.padEnd(13)}  ${String(subjects.length).padStart(8)}  ${String(delivered.length).padStart(9)}  ${String(lost).padStart(4)}  ${String(duplicated.length).padStart(10)}  ${String(foreign.length).padStart(5)}`,
    );
    if (lost > 0) ok = false;
    if (name !== 'sigkill' && duplicated.length > 0) ok = false;
    if (foreign.length > 0) ok = false;
  }
  console.log(`sends retried while the site restarted: ${retried}; answered with an error: ${refused}`);
  console.log(`exit code after SIGTERM: ${shutdownCodes.sigterm}`);
  if (shutdownCodes.sigterm !== 0) ok = false;
  if (ok) {
    console.log('OK: no accepted enquiry lost, no duplicate outside the SIGKILL window.');
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  } else {
    console.error(`FAILED: see the figures above and ${logFile}.`);
  }
  return ok;
}

/** The Subject header, unfolded. */
function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '';
}

/** The visitor's subject from the notification's (`Enquiry HC-7KQ-4MP: …`). */
const enquirySubjectOf = (raw: string) => subjectOf(raw).replace(/^Enquiry HC-[\dA-Z]{3}-[\dA-Z]{3}: /, '');

function messageIdOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return /^Message-ID: (.*)$/im.exec(headers)?.[1]?.trim() ?? '';
}

let passed = true;
try {
  if (!values['skip-throughput']) {
    // Per pair, on against off as a fraction of off: accepted/s, and server CPU per accepted enquiry.
    const differences: { throughput: number; cpu: number | undefined }[] = [];
    for (let pair = 0; pair < pairs; pair += 1) {
      const order = onFirst(pair) ? [true, false] : [false, true];
      const ran: Record<'off' | 'on', RunFigures | undefined> = { off: undefined, on: undefined };
      for (const webhooks of order) {
        passed = (await throughputRun({ photos: 0, webhooks })) && passed;
        ran[webhooks ? 'on' : 'off'] = figures.at(-1);
      }
      const { off, on } = ran;
      if (off && on)
        differences.push({
          throughput: (on.acceptedPerSecond - off.acceptedPerSecond) / off.acceptedPerSecond,
          cpu:
            on.cpuMsPerAccepted === undefined || off.cpuMsPerAccepted === undefined
              ? undefined
              : (on.cpuMsPerAccepted - off.cpuMsPerAccepted) / off.cpuMsPerAccepted,
        });
    }
    if (photosPerEnquiry > 0) passed = (await throughputRun({ photos: photosPerEnquiry })) && passed;
    console.log('\nrun                                                accepted/s  CPU ms per accepted   p50 ms   p99 ms');
    for (const run of figures) {
      console.log(
        `${run.label.padEnd(50)} ${run.acceptedPerSecond.toFixed(1).padStart(10)} ${(run.cpuMsPerAccepted?.toFixed(2) ?? 'unavailable').padStart(20)} ${String(run.p50).padStart(8)} ${String(run.p99).padStart(8)}`,
      );
    }
    const percent = (fraction: number) => `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;
    const mean = (values: number[]) => values.reduce((sum, each) => sum + each, 0) / values.length;
    const cpu = (fraction: number | undefined) => (fraction === undefined ? 'unavailable' : percent(fraction));
    differences.forEach(({ throughput, cpu: cpuDifference }, pair) =>
      console.log(
        `webhooks on, pair ${pair + 1} (${onFirst(pair) ? 'on first' : 'off first'}): ${percent(throughput)} accepted/s, ${cpu(cpuDifference)} server CPU per accepted enquiry, against off`,
      ),
    );
    if (differences.length > 1) {
      const cpuDifferences = differences.map((each) => each.cpu);
      const cpuMean = cpuDifferences.every((each) => each !== undefined) ? mean(cpuDifferences) : undefined;
      console.log(
        `webhooks on, mean of ${differences.length} pairs: ${percent(mean(differences.map((each) => each.throughput)))} accepted/s, ${cpu(cpuMean)} server CPU per accepted enquiry, against off`,
      );
    }
  }
  if (!values['skip-faults']) passed = (await faultRun()) && passed;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  passed = false;
}
process.exit(passed ? 0 : 1);
