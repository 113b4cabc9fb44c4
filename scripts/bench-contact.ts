// `npm run bench:contact [-- --connections 20 --amount 2000 --faults 60]`: two runs against the production
// build (built the way `npm run build` does when there is none), each with its own database:
//   1. throughput: concurrent submissions to POST /api/contact (autocannon); prints accepted enquiries per
//      second and latency, and checks the database holds exactly one row per 201 answer;
//   2. faults: enquiries while the SMTP server is stopped and started again, and while the site's
//      process is restarted mid-run (SIGTERM, then SIGKILL); prints accepted, delivered, lost and
//      duplicated per phase.
// Exits non-zero when stored rows differ from 201s, when an accepted enquiry is lost, when any duplicate
// arrives in the SMTP-outage or SIGTERM phases, or when a SIGKILL duplicate carries a different Message-ID
// (a kill between the relay's acceptance and the database's record is the one window SMTP cannot close;
// the stable Message-ID lets mail systems drop the copy). Not a test: the figures depend on the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createClient } from '@libsql/client';
import { startSmtpServer, type ReceivedMail } from '../tests/support/smtp-server';
import { ensureBuild } from './support/ensure-build.mjs';

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
  },
});
const connections = Number(values.connections);
const amount = Number(values.amount);
const perPhase = Number(values.faults);
const port = Number(values.port);
const distDir = values['dist-dir'];
const base = `http://127.0.0.1:${port}`;

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
ensureBuild(distDir);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts server.mjs on the bench port with `env`; resolves once it serves pages. */
async function startSite(env: Record<string, string>, logFile: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['server.mjs'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NEXT_DIST_DIR: distDir, PORT: String(port), HOSTNAME: '127.0.0.1', ...env },
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/contact`)).ok) return server;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`The server did not start (see ${logFile}).`);
    await sleep(200);
  }
}

async function stopSite(server: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (server.exitCode !== null) return server.exitCode;
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  server.kill(signal);
  return exited;
}

const enquiry = (subject: string) => ({
  name: 'Bench Mark',
  email: 'bench@example.com',
  phone: '',
  subject,
  message: `${subject}: an enquiry from the contact benchmark. Water is coming in.`,
});

async function throughputRun(): Promise<boolean> {
  // Its own database and outbox, so the bench never touches the site's data.
  const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-'));
  const databaseUrl = `file:${path.join(work, 'bench.db')}`;
  const server = await startSite(
    {
      DATABASE_URL: databaseUrl,
      ENQUIRY_OUTBOX_DIR: path.join(work, 'outbox'),
      SMTP_URL: '',
      RECAPTCHA_PROJECT_ID: '',
      RECAPTCHA_API_KEY: '',
      CONTACT_RATE_LIMIT: '1000000',
    },
    path.join(work, 'server.log'),
  );
  try {
    let counter = 0;
    console.log(`== Throughput: POST ${base}/api/contact, ${amount} submissions over ${connections} connections`);
    const result = await autocannon({
      url: base,
      connections,
      amount,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          path: '/api/contact',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => {
            counter += 1;
            return { ...request, body: JSON.stringify(enquiry(`Benchmark enquiry ${counter}`)) };
          },
        },
      ],
    });
    const accepted = result.statusCodeStats['201']?.count ?? 0;
    const db = createClient({ url: databaseUrl });
    const stored = Number((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n);
    const jobs = Number((await db.execute('SELECT count(*) AS n FROM enquiry_notifications')).rows[0]?.n);
    db.close();
    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}: ${count}`)
      .join(', ');
    console.log(`responses      ${result.requests.total} (${statuses}); errors ${result.errors}, timeouts ${result.timeouts}`);
    console.log(`accepted/s     ${(accepted / (result.duration || 1)).toFixed(1)}`);
    console.log(`latency        p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`stored rows    ${stored} enquiries, ${jobs} notification jobs, for ${accepted} accepted answers`);
    if (stored !== accepted || jobs !== accepted) {
      console.error('MISMATCH: stored rows differ from accepted responses.');
      return false;
    }
    console.log('OK: every accepted enquiry is stored once, with its notification job.');
    return true;
  } finally {
    await stopSite(server);
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
    shutdownCodes[name] = await stopSite(server, signal);
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
    const deliveredSubjects = () => new Set([...received, ...smtp.received].map((mail) => subjectOf(mail.raw)));
    process.stdout.write('waiting for delivery');
    while (Date.now() < deadline) {
      const delivered = deliveredSubjects();
      if ([...accepted.keys()].every((subject) => delivered.has(`Website enquiry: ${subject}`))) break;
      process.stdout.write('.');
      await sleep(5000);
    }
    process.stdout.write('\n');
    // One more poll interval, so a late duplicate would show.
    await sleep(2000);
  } finally {
    await stopSite(server);
    await smtp.close();
  }

  const bySubject = new Map<string, string[]>();
  for (const mail of received) {
    const subject = subjectOf(mail.raw).replace(/^Website enquiry: /, '');
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

function messageIdOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return /^Message-ID: (.*)$/im.exec(headers)?.[1]?.trim() ?? '';
}

let passed = true;
try {
  if (!values['skip-throughput']) passed = (await throughputRun()) && passed;
  if (!values['skip-faults']) passed = (await faultRun()) && passed;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  passed = false;
}
process.exit(passed ? 0 : 1);
