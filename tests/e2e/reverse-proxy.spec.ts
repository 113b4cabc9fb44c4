import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { expect, test } from '@playwright/test';
import { testBuildEnv, testPorts } from './test-env';

// The site behind Debian's nginx, configured with the block the README's Deploy section gives, and
// TRUST_PROXY=1: a client that writes its own X-Forwarded-For can neither dodge its rate limit, lock
// out the address it names, nor have that address stored as its own.

const sitePort = testPorts.site + 20;
const proxyPort = testPorts.site + 21;
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The nginx block between the README's nginx-site markers, pointed at this test's site port. */
function readmeNginxBlock(): string {
  const readme = readFileSync('README.md', 'utf8');
  const block = /<!-- nginx-site:start -->\s*```nginx\n([\s\S]*?)```\s*<!-- nginx-site:end -->/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no nginx-site block');
  expect(block).toContain('proxy_pass http://127.0.0.1:3000;');
  return block.replace('http://127.0.0.1:3000', `http://127.0.0.1:${sitePort}`);
}

type Answer = { status: number; body: string };

/** A request from a chosen loopback address (127.0.0.x), as a distinct visitor would make it. */
function send(
  localAddress: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: proxyPort, localAddress, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const enquiry = (subject: string) =>
  JSON.stringify({ name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject, message: 'Water is coming in through the roof.' });

const post = (from: string, forged: string, subject: string) =>
  send(from, {
    method: 'POST',
    path: '/api/contact',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
    body: enquiry(subject),
  });

let work: string;
let site: ChildProcess;
let nginx: ChildProcess;
let databaseUrl: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  work = mkdtempSync(path.join(tmpdir(), 'homecare-proxy-'));
  chmodSync(work, 0o777);
  databaseUrl = `file:${path.join(work, 'site.db')}`;
  site = spawn(process.execPath, ['server.mjs'], {
    stdio: 'ignore',
    env: {
      ...process.env,
      ...testBuildEnv,
      PORT: String(sitePort),
      HOSTNAME: '127.0.0.1',
      TRUST_PROXY: '1',
      DATABASE_URL: databaseUrl,
      ENQUIRY_OUTBOX_DIR: path.join(work, 'outbox'),
      CONTACT_RATE_LIMIT: '2',
    },
  });
  for (const folder of ['logs', 'temp']) mkdirSync(path.join(work, folder), { recursive: true });
  const config = `
daemon off;
worker_processes 1;
pid ${work}/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${work}/temp/body;
  proxy_temp_path ${work}/temp/proxy;
  fastcgi_temp_path ${work}/temp/fastcgi;
  uwsgi_temp_path ${work}/temp/uwsgi;
  scgi_temp_path ${work}/temp/scgi;
  server {
    listen 127.0.0.1:${proxyPort};
    ${readmeNginxBlock()}
  }
}
`;
  writeFileSync(path.join(work, 'nginx.conf'), config);
  nginx = spawn(NGINX, ['-c', path.join(work, 'nginx.conf'), '-p', work], { stdio: 'inherit' });
  await expect
    .poll(
      async () =>
        send('127.0.0.1', { path: '/contact' })
          .then((answer) => answer.status)
          .catch(() => 0),
      { timeout: 60_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  for (const child of [nginx, site]) {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  rmSync(work, { recursive: true, force: true });
});

test('a forged X-Forwarded-For does not get round the limit, cannot lock out the address it names, and is never stored', async () => {
  // The attacker at 127.0.0.2 names a new address on every request.
  expect((await post('127.0.0.2', '203.0.113.1', 'First from the attacker')).status).toBe(201);
  expect((await post('127.0.0.2', '203.0.113.2', 'Second from the attacker')).status).toBe(201);
  const limited = await post('127.0.0.2', '203.0.113.3', 'Third from the attacker');
  expect(limited.status).toBe(429);
  expect(JSON.parse(limited.body)).toEqual({ success: false, message: 'Too many requests. Please try again later.' });
  // It names the victim's address (127.0.0.3) as its own; the victim is not affected.
  await post('127.0.0.2', '127.0.0.3', 'Fourth from the attacker');
  expect((await post('127.0.0.3', '', 'From the real 127.0.0.3')).status).toBe(201);

  const db = createClient({ url: databaseUrl });
  const stored = (await db.execute('SELECT client_address, subject FROM enquiries ORDER BY id')).rows.map((row) => [
    row.client_address,
    row.subject,
  ]);
  db.close();
  expect(stored).toEqual([
    ['127.0.0.2', 'First from the attacker'],
    ['127.0.0.2', 'Second from the attacker'],
    ['127.0.0.3', 'From the real 127.0.0.3'],
  ]);
});
