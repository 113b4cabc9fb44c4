import 'server-only';
import { config as siteConfig } from '@/server/base/config.mjs';
import { getDb } from '@/server/base/db';
import { doublingDelay } from '@/server/base/doubling-delay';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { createDeliveryMonitor } from '@/server/reports/delivery-monitor';
import { configuredDigestWorker } from '@/server/reports/digest/schedule';
import { configuredPhotoStorage } from '@/server/reports/health';
import { createMailer } from '@/server/delivery/mailer';
import { startWorkers } from '@/server/delivery/worker-runner';
import { createOutboxWorker, type OutboxWorker } from '@/server/delivery/outbox-worker';
import { createWebhookWorker } from '@/server/crm/webhooks';
import { createOperatorAlerts } from '@/server/error-log/operator-alerts';
import { startRetentionJob } from '@/server/upkeep/retention';
import { onShutdown } from '@/server/base/shutdown-hooks.mjs';
import { whenOutboxWritten } from '@/server/ledger/outbox';
import { createLinkMailWorker } from '@/server/delivery/portfolio-link-mail';

/** Waits before trying again to start a worker that could not start: 5 s doubling to 5 min. */
export const startRetryDelayMs = doublingDelay(5_000, 5 * 60_000);

/**
 * Starts something that may fail (the database may be locked or unreachable at boot) and keeps
 * trying with growing delays until it starts; a failure is never remembered as the result.
 */
export function createRetryingStarter<T>(options: {
  create: () => Promise<T>;
  retryDelayMs?: (failures: number) => number;
  log?: (line: string) => void;
}) {
  const retryDelay = options.retryDelayMs ?? startRetryDelayMs;
  const log = options.log ?? ((line: string) => console.error(line));
  let current: Promise<T> | undefined;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;

  function attempt(): Promise<T> {
    current = options.create().then(
      (value) => {
        failures = 0;
        return value;
      },
      (error: unknown) => {
        failures += 1;
        current = undefined;
        const delay = retryDelay(failures);
        log(
          `[outbox] could not start (attempt ${failures}), trying again in ${Math.round(delay / 1000)} s: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!cancelled) {
          timer = setTimeout(() => void start().catch(() => undefined), delay);
          timer.unref?.();
        }
        throw error;
      },
    );
    return current;
  }

  function start(): Promise<T> {
    return current ?? attempt();
  }

  return {
    start,
    /** The started value, if it has started (or is starting). */
    current: () => current,
    cancel() {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}

// One worker per server process, kept on globalThis so a second import of this module (Next may
// bundle it into more than one chunk) finds the same one.
const KEY = Symbol.for('homecare.enquiries.outboxWorker');
type Holder = { [KEY]?: ReturnType<typeof createRetryingStarter<OutboxWorker>> };

async function createServerWorker(): Promise<OutboxWorker> {
  const config = loadEnquiryConfig();
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir });
  const alerts = createOperatorAlerts();
  const db = await getDb();
  const worker = createOutboxWorker({
    db,
    mailer,
    from: config.from,
    to: config.to,
    pollMs: config.pollMs,
    maxMessageBytes: config.maxMessageBytes,
    siteUrl: siteConfig().siteUrl,
    onPause: (detail) =>
      void alerts.raise(
        'delivery-paused',
        `Enquiry notifications are paused: the mail relay refused the site's settings (${detail}). Check SMTP_URL.`,
        {
          relay: mailer.describe,
        },
      ),
  });
  const monitor = createDeliveryMonitor({
    openDb: getDb,
    alerts,
    worker: () => worker.state(),
    photoStorage: configuredPhotoStorage(),
    webhooks: siteConfig().crmWebhook !== null,
  });
  const retention = startRetentionJob(getDb);
  const linkMails = createLinkMailWorker({
    db,
    mailer,
    from: config.from,
    replyTo: config.to,
    siteUrl: siteConfig().siteUrl,
    pollMs: config.pollMs,
  });
  const crm = siteConfig().crmWebhook;
  // The server's workers, one map: the CRM's events have a worker of their own, so a CRM that is down
  // never holds back an e-mail. Stopped in this order at shutdown, each once its job under way is recorded.
  const workers = startWorkers({
    webhooks: crm ? createWebhookWorker({ db, target: crm, siteUrl: siteConfig().siteUrl, pollMs: config.pollMs }) : null,
    outbox: worker,
    'portfolio-links': linkMails,
    digest: configuredDigestWorker(db, mailer, { worker: () => worker.state() }),
  });
  monitor.start();
  // The CRM's events wait for their worker's poll: in a burst it then takes them in full batches.
  const stopHearing = whenOutboxWritten(worker.wake);
  const stopHearingLinks = whenOutboxWritten(linkMails.wake);
  onShutdown('background work', async () => {
    stopHearing();
    stopHearingLinks();
    monitor.stop();
    retention.stop();
    await workers.stop();
    mailer.close();
  });
  console.log(`[outbox] delivering enquiry notifications to ${config.to} via ${mailer.describe}`);
  if (crm) console.log(`[webhooks] telling the company's CRM of each enquiry at ${new URL(crm.url).origin}`);
  return worker;
}

/**
 * Starts this process's background work (from instrumentation.ts), retrying until it starts; idempotent:
 * the e-mails, the CRM's webhooks, the weekly digest, retention and the delivery monitor.
 */
export function startBackgroundWork(): Promise<OutboxWorker> {
  const holder = globalThis as Holder;
  holder[KEY] ??= createRetryingStarter({ create: createServerWorker });
  return holder[KEY].start();
}

/** This process's worker, when it has started. */
export function runningOutboxWorker(): Promise<OutboxWorker> | undefined {
  return (globalThis as Holder)[KEY]?.current();
}
