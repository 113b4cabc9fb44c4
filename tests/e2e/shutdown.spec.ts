import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './support/test';
import { startSiteServer } from '../../scripts/support/site-server';
import { startSmtpServer } from '../../scripts/support/smtp-server';
import { productionConfigEnv, testPorts } from './test-env';
import { openTestDatabase } from './support/database';

// A supervisor's restart of the production-configuration build (server.mjs) while a notification is
// being sent: the process stops taking connections, lets the relay accept the message, records it as
// sent, and exits 0; the next process sends nothing twice.

const port = testPorts.productionSite + 10;
const base = `http://127.0.0.1:${port}`;

const startSite = (env: Record<string, string>) =>
  startSiteServer({ port, env: { ...productionConfigEnv, ...env }, readyPath: '/contact' });

/** An enquiry posted straight to the API, as the form sends one without a browser token. */
const sendEnquiry = (subject: string, message: string) =>
  fetch(`${base}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject, message }),
  });

test('SIGTERM mid-send: no new connections, the message is accepted and recorded once, exit 0, nothing resent after the restart', async () => {
  test.setTimeout(120_000);
  const work = mkdtempSync(path.join(tmpdir(), 'homecare-shutdown-'));
  const databaseUrl = `file:${path.join(work, 'site.db')}`;
  let dataStarted: () => void = () => undefined;
  const sending = new Promise<void>((resolve) => (dataStarted = resolve));
  const slowRelay = await startSmtpServer(0, { onDataStart: () => dataStarted(), acceptDelayMs: 3000 });
  const env = {
    DATABASE_URL: databaseUrl,
    SMTP_URL: `smtp://127.0.0.1:${slowRelay.port}`,
    ENQUIRY_POLL_SECONDS: '0.2',
    // The one e-mail in flight is the company's notification.
    ENQUIRY_ACKNOWLEDGE: 'off',
    // Posted directly here, without a browser token; the journeys cover the assessment.
    RECAPTCHA_PROJECT_ID: '',
    RECAPTCHA_API_KEY: '',
  };
  let site = await startSite(env);
  try {
    expect((await sendEnquiry('Shutdown test', 'Sent just before a restart.')).status).toBe(201);
    await sending;

    const signalled = Date.now();
    const exited = site.stop('SIGTERM');
    // The server says it is stopping in the same turn as it stops listening (server/edge/graceful-shutdown.mjs).
    await expect.poll(() => site.output(), { timeout: 10_000 }).toContain('[server] SIGTERM: finishing requests');
    // Shutting down: new connections are refused while the send finishes.
    await expect(fetch(`${base}/contact`)).rejects.toThrow();
    expect(await exited).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThan(2000);
    expect(took).toBeLessThan(12_000);

    const db = openTestDatabase(databaseUrl);
    const jobs = (await db.execute('SELECT status, message_id FROM enquiry_notifications')).rows.map((row) => ({ ...row }));
    db.close();
    expect(jobs).toEqual([{ status: 'sent', message_id: expect.stringMatching(/^<enquiry-1\./) }]);
    expect(slowRelay.received).toHaveLength(1);

    // The supervisor starts the site again: nothing is pending, nothing is sent twice. A later enquiry's
    // notification is the marker: the outbox sends the oldest job due first, so a resent one would be ahead of it.
    site = await startSite(env);
    expect((await sendEnquiry('After the restart', 'Sent after the restart, as a marker.')).status).toBe(201);
    await expect
      .poll(() => slowRelay.received.filter((mail) => mail.raw.includes('After the restart')).length, { timeout: 15_000 })
      .toBe(1);
    expect(slowRelay.received.filter((mail) => !mail.raw.includes('After the restart'))).toHaveLength(1);
  } finally {
    await site.stop();
    await slowRelay.close();
    rmSync(work, { recursive: true, force: true });
  }
});

test('a supervisor whose end of the log pipe closed: the server goes on serving, and SIGTERM still stops it with exit 0', async () => {
  test.setTimeout(120_000);
  const work = mkdtempSync(path.join(tmpdir(), 'homecare-shutdown-'));
  const site = await startSite({ DATABASE_URL: `file:${path.join(work, 'site.db')}`, RECAPTCHA_PROJECT_ID: '', RECAPTCHA_API_KEY: '' });
  try {
    // The reader goes away: every line the server writes from now on fails to reach it.
    site.child.stdout?.destroy();
    site.child.stderr?.destroy();
    expect((await sendEnquiry('Logs gone', 'Sent after the log reader went away.')).status).toBe(201);
    expect((await fetch(`${base}/contact`)).status).toBe(200);
    // Exit 0 from its own shutdown, not null from the SIGKILL sent if it is still running after 30 s.
    expect(await site.stop('SIGTERM', { killAfterMs: 30_000 })).toBe(0);
  } finally {
    await site.stop('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
});

test('GET /api/health answers 200 with no personal data and is never cached', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  // lastDigestAt is null until a digest has gone out (tests/e2e/digest.spec.ts sends one), then its time.
  const body = (await response.json()) as { lastDigestAt: unknown };
  expect(body).toEqual({
    status: 'ok',
    problems: [],
    lastDigestAt: body.lastDigestAt === null ? null : expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
  });
  expect(response.headers()['cache-control']).toBe('no-store');
});
