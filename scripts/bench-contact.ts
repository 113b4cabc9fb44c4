// `npm run bench:contact [-- --connections 20 --amount 2000]`: drives POST /api/contact of the production
// build with concurrent submissions (autocannon), prints accepted enquiries per second and p99 latency,
// then checks the database holds exactly one row per 201 answer. Not a test: numbers depend on the machine.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createClient } from '@libsql/client';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '20' },
    // A fixed number of requests (not a duration), so every one is answered before counting.
    amount: { type: 'string', default: '2000' },
    port: { type: 'string', default: '3990' },
    'dist-dir': { type: 'string', default: '.next' },
  },
});
const connections = Number(values.connections);
const amount = Number(values.amount);
const port = Number(values.port);
const distDir = values['dist-dir'];

process.env.NEXT_TELEMETRY_DISABLED ??= '1';
if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.log(`No production build in ${distDir}: running \`next build\` first.`);
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_DIST_DIR: distDir },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Its own database and outbox, so the bench never touches the site's data.
const work = mkdtempSync(path.join(tmpdir(), 'homecare-bench-'));
const databaseUrl = `file:${path.join(work, 'bench.db')}`;
const server = spawn(process.execPath, ['server.mjs'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NEXT_DIST_DIR: distDir,
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    ENQUIRY_OUTBOX_DIR: path.join(work, 'outbox'),
    SMTP_URL: '',
    RECAPTCHA_PROJECT_ID: '',
    RECAPTCHA_API_KEY: '',
    CONTACT_RATE_LIMIT: '1000000',
  },
});
const stop = async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true, maxRetries: 3 });
};

try {
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/contact`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('The server did not start.');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  let counter = 0;
  console.log(`POST ${base}/api/contact: ${amount} submissions over ${connections} connections…`);
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
          return {
            ...request,
            body: JSON.stringify({
              name: 'Bench Mark',
              email: 'bench@example.com',
              phone: '',
              subject: `Benchmark enquiry ${counter}`,
              message: `Enquiry number ${counter} from the contact benchmark. Water is coming in.`,
            }),
          };
        },
      },
    ],
  });

  const accepted = result.statusCodeStats['201']?.count ?? 0;
  const db = createClient({ url: databaseUrl });
  const stored = Number((await db.execute('SELECT count(*) AS n FROM enquiries')).rows[0]?.n);
  const jobs = Number((await db.execute('SELECT count(*) AS n FROM enquiry_notifications')).rows[0]?.n);
  db.close();

  const statuses = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ');
  console.log(`responses      ${result.requests.total} (${statuses}); errors ${result.errors}, timeouts ${result.timeouts}`);
  console.log(`accepted/s     ${(accepted / (result.duration || 1)).toFixed(1)}`);
  console.log(`latency        p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`stored rows    ${stored} enquiries, ${jobs} notification jobs, for ${accepted} accepted answers`);
  if (stored !== accepted || jobs !== accepted) {
    console.error('MISMATCH: stored rows differ from accepted responses.');
    process.exitCode = 1;
  } else {
    console.log('OK: every accepted enquiry is stored once, with its notification job.');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await stop();
}
