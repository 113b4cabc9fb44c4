import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '@libsql/client';
import type { ErrorLogRecord } from '@/lib/error-log';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createDeliveryMonitor } from '@/server/reports/delivery-monitor';
import { recordStageChange } from '@/server/claims/claim-status';
import { orm } from '@/server/base/db';
import { webhookEvents } from '@/server/base/db-schema';
import { writePendingReceivedEvents } from '@/server/crm/outgoing-events';
import { checkEnquiryHealth, publicHealth } from '@/server/reports/health';
import { createAlertSink, createOperatorAlerts } from '@/server/error-log/operator-alerts';
import { tempDatabase } from '@/tests/support/enquiry-peers';
import { runToEnd, spawnTs } from '@/tests/support/child-process';
import { resetConfig } from '@/server/base/config.mjs';
import { healthMain } from '@/scripts/support/health-command';
import { submitEnquiry } from '@/tests/support/stored-enquiry';

const valid = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '', subject: 'Roof leak', message: 'Water is coming in.' };
const start = Date.parse('2026-01-05T09:00:00Z');

let db: Client;
let url: string;
let cleanup: () => void;
beforeEach(async () => {
  ({ db, url, cleanup } = await tempDatabase());
});
afterEach(() => cleanup());

async function submit(at: number, subject = valid.subject) {
  await submitEnquiry(db, { ...valid, subject }, { at });
}

describe('enquiry health', () => {
  it('is healthy with nothing pending, and names no personal data in the public answer', async () => {
    const health = await checkEnquiryHealth(async () => db, { now: start });
    expect(health).toMatchObject({
      healthy: true,
      problems: [],
      database: 'ok',
      pendingNotifications: 0,
      failedNotifications: 0,
      lastSentAt: null,
    });
    expect(publicHealth(health)).toEqual({ status: 200, body: { status: 'ok', problems: [], lastDigestAt: null } });
  });

  it('is unhealthy when the oldest pending notification is older than 15 minutes', async () => {
    await submit(start);
    expect((await checkEnquiryHealth(async () => db, { now: start + 15 * 60_000 })).healthy).toBe(true);
    const late = await checkEnquiryHealth(async () => db, { now: start + 15 * 60_000 + 1000 });
    expect(late).toMatchObject({ healthy: false, problems: ['notifications-delayed'], pendingNotifications: 1, oldestPendingSeconds: 901 });
    expect(publicHealth(late)).toEqual({
      status: 503,
      body: { status: 'unhealthy', problems: ['notifications-delayed'], lastDigestAt: null },
    });
    expect(JSON.stringify(publicHealth(late))).not.toContain('jo@example.com');
  });

  it('is unhealthy with a permanently failed notification, when the database is unreachable, and while delivery is paused', async () => {
    await submit(start);
    await db.execute("UPDATE enquiry_notifications SET status = 'failed'");
    expect((await checkEnquiryHealth(async () => db, { now: start })).problems).toEqual(['notifications-failed']);
    const down = await checkEnquiryHealth(async () => {
      throw new Error('SQLITE_CANTOPEN');
    });
    expect(down).toMatchObject({ healthy: false, problems: ['database-unreachable'], database: 'unreachable' });
    await db.execute("UPDATE enquiry_notifications SET status = 'sent', sent_at = '2026-01-05T09:00:01.000Z'");
    const paused = await checkEnquiryHealth(async () => db, {
      now: start,
      worker: { pausedUntil: start + 60_000, pauseReason: '535 Authentication failed' },
    });
    expect(paused).toMatchObject({
      healthy: false,
      problems: ['delivery-paused'],
      lastSentAt: '2026-01-05T09:00:01.000Z',
      pauseReason: '535 Authentication failed',
    });
  });

  it('counts claims by their latest stage and those past their next date on the UK calendar, when asked', async () => {
    await submit(start);
    await submit(start, 'Second enquiry');
    await submit(start, 'Third enquiry');
    await db.execute("UPDATE enquiry_notifications SET status = 'sent'");
    const stage = (id: number, name: 'contacted' | 'with-insurer' | 'completed', nextDate: string | null, at: number) =>
      recordStageChange(db, id, { stage: name, waitingOn: null, nextDate, note: null, tellCustomer: false, source: 'crm' }, at);
    await stage(1, 'contacted', '2026-06-30', start + 1000);
    await stage(2, 'contacted', null, start + 1000);
    await stage(2, 'with-insurer', '2026-06-30', start + 2000);
    await stage(3, 'completed', '2026-06-01', start + 3000);
    expect((await checkEnquiryHealth(async () => db, { now: start })).claims).toBeNull();
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST): a next date of 30 June has passed there.
    const summerNight = Date.parse('2026-06-30T23:30:00Z');
    const counted = await checkEnquiryHealth(async () => db, { now: summerNight, countClaims: true });
    expect(counted).toMatchObject({ healthy: true });
    expect(counted.claims).toEqual({
      byStage: [
        { stage: 'contacted', claims: 1, pastNextDate: 1 },
        { stage: 'with-insurer', claims: 1, pastNextDate: 1 },
        { stage: 'completed', claims: 1, pastNextDate: 0 },
      ],
      pastNextDate: 2,
    });
    // Forty minutes before (23:50 BST), London's calendar still says 30 June: nothing has passed.
    expect((await checkEnquiryHealth(async () => db, { now: summerNight - 40 * 60_000, countClaims: true })).claims?.pastNextDate).toBe(0);
    // Counted for the company's view only: the public answer says nothing of them.
    expect(JSON.stringify(publicHealth(counted))).not.toContain('claims');
  });

  it("checks the CRM's webhooks only when asked (they are on): failed for good, or the oldest waiting over an hour", async () => {
    await submit(start);
    await db.execute("UPDATE enquiry_notifications SET status = 'sent'");
    const event = { enquiryId: 1, occurredAt: new Date(start).toISOString(), createdMs: start, nextAttemptMs: start };
    await orm(db)
      .insert(webhookEvents)
      .values([
        { ...event, type: 'enquiry.received', eventId: `msg_${'1'.repeat(32)}`, status: 'failed', attempts: 3, lastError: 'HTTP 410' },
        { ...event, type: 'enquiry.photos_added', eventId: `msg_${'2'.repeat(32)}`, photosFrom: 2, attempts: 1 },
      ]);
    const off = await checkEnquiryHealth(async () => db, { now: start + 2 * 3_600_000 });
    expect(off).toMatchObject({ healthy: true, problems: [], webhooks: null });
    const onTime = await checkEnquiryHealth(async () => db, { now: start + 3_600_000, webhooks: true });
    expect(onTime).toMatchObject({
      healthy: false,
      problems: ['webhooks-failed'],
      webhooks: { pending: 1, failed: 1, oldestUndeliveredSeconds: 3600 },
    });
    const late = await checkEnquiryHealth(async () => db, { now: start + 3_600_000 + 1000, webhooks: true });
    expect(late.problems).toEqual(['webhooks-failed', 'webhooks-delayed']);
    // The public answer names the problems, as for the e-mails, and nothing more.
    expect(publicHealth(late)).toEqual({
      status: 503,
      body: { status: 'unhealthy', problems: ['webhooks-failed', 'webhooks-delayed'], lastDigestAt: null },
    });
    await db.execute("UPDATE webhook_events SET status = 'delivered', delivered_at = '2026-01-05T09:00:01.000Z'");
    expect(await checkEnquiryHealth(async () => db, { now: start + 3_600_000, webhooks: true })).toMatchObject({
      healthy: true,
      webhooks: { pending: 0, failed: 0, oldestUndeliveredSeconds: null },
    });
  });

  it('counts the events the CRM is owed without writing them: another process holding the write lock, the database still answers', async () => {
    const crmEnv = {
      CRM_WEBHOOK_URL: 'https://crm.example.com/hooks/site',
      CRM_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
    };
    for (const [at, subject] of [
      [start, 'Roof leak, owed'],
      [start + 60_000, 'Burst pipe, owed'],
    ] as const) {
      await submitEnquiry(db, { ...valid, subject }, { at, config: loadEnquiryConfig(crmEnv) });
    }
    await db.execute("UPDATE enquiry_notifications SET status = 'sent'");
    const rowsOf = async () =>
      (
        await db.execute(
          'SELECT (SELECT count(*) FROM webhook_events) AS events, (SELECT count(*) FROM enquiries WHERE crm_owed_received = 1) AS owed',
        )
      ).rows[0];
    expect(await rowsOf()).toMatchObject({ events: 0, owed: 2 });
    // What GET /api/health asks for when the webhooks are on.
    const check = () => checkEnquiryHealth(async () => db, { now: start + 2 * 3_600_000, webhooks: true });

    const other = createClient({ url });
    const writing = await other.transaction('write');
    let held: Awaited<ReturnType<typeof check>>;
    try {
      await writing.execute("UPDATE enquiries SET subject = 'held'");
      held = await check();
    } finally {
      await writing.rollback();
      writing.close();
      other.close();
    }
    expect(held).toMatchObject({
      database: 'ok',
      problems: ['webhooks-delayed'],
      webhooks: { pending: 2, failed: 0, oldestUndeliveredSeconds: 2 * 3600 },
    });
    expect(publicHealth(held).body).toEqual({ status: 'unhealthy', problems: ['webhooks-delayed'], lastDigestAt: null });
    expect(await rowsOf()).toMatchObject({ events: 0, owed: 2 });

    // The same figures the written events give, once the CRM's worker has written them.
    expect(await writePendingReceivedEvents(db)).toBe(2);
    expect(await rowsOf()).toMatchObject({ events: 2, owed: 0 });
    expect(await check()).toEqual(held);
  });

  /** `npm run health` run in process (healthMain), with these environment variables for its run. */
  async function healthCommand(args: string[], env: Record<string, string>) {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    resetConfig();
    const lines: string[] = [];
    const stderr: string[] = [];
    try {
      const code = await healthMain(args, {
        log: (text) => lines.push(...text.split('\n')),
        error: (text) => stderr.push(text),
        write: (text) => lines.push(text),
      });
      return { code, lines, stderr: stderr.join('\n') };
    } finally {
      vi.unstubAllEnvs();
      resetConfig();
    }
  }

  it('npm run health prints the figures and exits 1 when unhealthy, 0 when healthy', async () => {
    // The command itself once; then its main function in process, as the command runs it.
    const healthy = await runToEnd(spawnTs('scripts/health.ts', [], { DATABASE_URL: url }));
    expect(healthy.code).toBe(0);
    expect(healthy.lines.join('\n')).toMatch(/status: +healthy/);
    expect(healthy.lines.join('\n')).toMatch(/claims by stage: +none\nclaims past their next date: +0$/m);
    expect(healthy.lines.join('\n')).not.toContain('webhook');
    await submit(Date.now() - 20 * 60_000);
    const unhealthy = await healthCommand(['--json'], { DATABASE_URL: url });
    expect(unhealthy.code).toBe(1);
    expect(JSON.parse(unhealthy.lines.join('\n'))).toMatchObject({
      healthy: false,
      problems: ['notifications-delayed'],
      pendingNotifications: 1,
      claims: { byStage: [{ stage: 'received', claims: 1, pastNextDate: 0 }], pastNextDate: 0 },
    });
    const listed = await healthCommand([], { DATABASE_URL: url });
    expect(listed.lines.join('\n')).toMatch(/claims by stage: +received 1$/m);
    expect(JSON.parse(unhealthy.lines.join('\n'))).toMatchObject({ webhooks: null });

    await db.execute("UPDATE enquiry_notifications SET status = 'sent'");
    const crm = { CRM_WEBHOOK_URL: 'https://crm.example.com/hooks', CRM_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 7).toString('base64')}` };
    const fine = await healthCommand([], { DATABASE_URL: url, ...crm });
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.lines.join('\n')).toMatch(/^CRM webhooks waiting: +0\nCRM webhooks failed for good: +0\noldest undelivered webhook: +-$/m);
    await orm(db)
      .insert(webhookEvents)
      .values({
        enquiryId: 1,
        type: 'enquiry.received',
        eventId: `msg_${'3'.repeat(32)}`,
        occurredAt: new Date().toISOString(),
        createdMs: Date.now() - 90 * 60_000,
        nextAttemptMs: Date.now(),
        status: 'pending',
        attempts: 6,
      });
    const delayed = await healthCommand([], { DATABASE_URL: url, ...crm });
    expect(delayed.code).toBe(1);
    const printed = delayed.lines.join('\n');
    expect(printed).toMatch(/^status: +UNHEALTHY \(webhooks-delayed\)$/m);
    expect(printed).toMatch(/^CRM webhooks waiting: +1$/m);
    expect(printed).toMatch(/^oldest undelivered webhook: +90 min \d+ s$/m);
    expect(printed).not.toContain('crm.example.com');
  }, 30_000);
});

describe('alerts when enquiries stop reaching the company', () => {
  it('raises a critical backend entry for a failed and for a delayed notification, each at most once an hour', async () => {
    let clock = start;
    const sent: ErrorLogRecord[] = [];
    const alerts = createOperatorAlerts({ now: () => clock, sink: async (record) => void sent.push(record) });
    const monitor = createDeliveryMonitor({ openDb: async () => db, alerts, now: () => clock });
    await submit(start);
    await submit(start, 'Second enquiry');
    await monitor.check();
    expect(sent).toEqual([]);
    clock += 16 * 60_000;
    await monitor.check();
    expect(sent.map((record) => [record.level, record.source, record.category, record.metadata?.condition])).toEqual([
      ['critical', 'backend', 'server', 'notifications-delayed'],
    ]);
    await db.execute("UPDATE enquiry_notifications SET status = 'failed' WHERE id = 1");
    clock += 60_000;
    await monitor.check();
    await monitor.check();
    expect(sent.map((record) => record.metadata?.condition)).toEqual(['notifications-delayed', 'notification-failed']);
    expect(sent[1]!.message).toContain('failed permanently');
    // Within the hour: nothing more, however often it is checked. After it: once more each.
    clock += 58 * 60_000;
    await monitor.check();
    expect(sent).toHaveLength(2);
    clock += 3 * 60_000;
    await monitor.check();
    expect(sent.map((record) => record.metadata?.condition)).toEqual([
      'notifications-delayed',
      'notification-failed',
      'notification-failed',
      'notifications-delayed',
    ]);
    expect(JSON.stringify(sent)).not.toContain('jo@example.com');
  });

  it('with webhooks on, the monitor raises an alert for an event to the CRM failed for good, and for one waiting over an hour', async () => {
    let clock = start;
    const sent: ErrorLogRecord[] = [];
    const alerts = createOperatorAlerts({ now: () => clock, sink: async (record) => void sent.push(record) });
    await submit(start);
    await db.execute("UPDATE enquiry_notifications SET status = 'sent'");
    const event = { enquiryId: 1, occurredAt: new Date(start).toISOString(), createdMs: start, nextAttemptMs: start };
    await orm(db)
      .insert(webhookEvents)
      .values([
        { ...event, type: 'enquiry.received', eventId: `msg_${'4'.repeat(32)}`, status: 'failed', attempts: 1, lastError: 'HTTP 410' },
        { ...event, type: 'enquiry.photos_added', eventId: `msg_${'5'.repeat(32)}`, photosFrom: 2, attempts: 30 },
      ]);
    await createDeliveryMonitor({ openDb: async () => db, alerts, now: () => clock }).check();
    expect(sent).toEqual([]);
    clock += 61 * 60_000;
    await createDeliveryMonitor({ openDb: async () => db, alerts, now: () => clock, webhooks: true }).check();
    expect(sent.map((record) => [record.level, record.metadata?.condition])).toEqual([
      ['critical', 'webhooks-failed'],
      ['critical', 'webhooks-delayed'],
    ]);
    expect(sent[1]!.message).toContain('has waited 61 minutes');
  });

  it("the sink stores the alert in the site's error log and posts it to the CRM when there is one", async () => {
    const received: unknown[] = [];
    const crm = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, body: JSON.parse(body) as unknown });
        response.writeHead(201, { 'Content-Type': 'application/json' }).end('{"success":true}');
      });
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', () => resolve()));
    try {
      const crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
      const alerts = createOperatorAlerts({ sink: createAlertSink({ db: async () => db, crmUrl }) });
      expect(await alerts.raise('delivery-paused', 'Enquiry notifications are paused')).toBe(true);
      expect(await alerts.raise('delivery-paused', 'Enquiry notifications are paused')).toBe(false);
      const stored = (await db.execute('SELECT level, source, category, message, client_address FROM error_logs')).rows.map((row) => ({
        ...row,
      }));
      expect(stored).toEqual([
        { level: 'critical', source: 'backend', category: 'server', message: 'Enquiry notifications are paused', client_address: 'server' },
      ]);
      expect(received).toEqual([
        {
          method: 'POST',
          url: '/api/error-logs',
          body: expect.objectContaining({
            level: 'critical',
            source: 'backend',
            application: 'homecare-web',
            message: 'Enquiry notifications are paused',
          }),
        },
      ]);
    } finally {
      crm.close();
    }
  });
});
