import 'server-only';
import type { Client } from '@libsql/client';
import { checkEnquiryHealth, STALE_PENDING_MS } from '@/server/reports/health';
import type { PhotoStorage } from '@/server/ledger/photo-storage';
import type { OutboxWorkerState } from '@/server/delivery/outbox-worker';
import type { OperatorAlerts } from '@/server/error-log/operator-alerts';

const MONITOR_INTERVAL_MS = 60_000;

/**
 * Checks once a minute whether enquiries are reaching the company and raises a critical alert when a
 * notification failed for good or the oldest pending one is older than 15 minutes, and (webhooks on)
 * when an event to the CRM failed for good or has waited over an hour (each condition at most once an
 * hour, see OperatorAlerts).
 */
export function createDeliveryMonitor(options: {
  openDb: () => Promise<Client>;
  /** The photo storage's state (the server: its configured budget); not checked when absent. */
  photoStorage?: (db: Client) => Promise<PhotoStorage>;
  alerts: OperatorAlerts;
  worker?: () => OutboxWorkerState | null;
  /** Whether the company's CRM is told of enquiries (webhooks on): its deliveries are checked too. */
  webhooks?: boolean;
  now?: () => number;
  intervalMs?: number;
}) {
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setInterval> | undefined;

  async function check() {
    const health = await checkEnquiryHealth(options.openDb, {
      now: now(),
      worker: options.worker?.() ?? null,
      photoStorage: options.photoStorage,
      webhooks: options.webhooks,
    });
    if (health.failedNotifications > 0) {
      await options.alerts.raise(
        'notification-failed',
        `${health.failedNotifications} enquiry notification(s) failed permanently and will not be sent: see npm run enquiries, then --retry-failed`,
        { failedNotifications: health.failedNotifications },
      );
    }
    if (health.problems.includes('notifications-delayed')) {
      await options.alerts.raise(
        'notifications-delayed',
        `An enquiry notification has been waiting ${Math.round((health.oldestPendingSeconds ?? 0) / 60)} minutes (limit ${STALE_PENDING_MS / 60_000}): enquiries are not reaching the company`,
        { pendingNotifications: health.pendingNotifications, oldestPendingSeconds: health.oldestPendingSeconds },
      );
    }
    const webhooks = health.webhooks;
    if (webhooks && health.problems.includes('webhooks-failed')) {
      await options.alerts.raise(
        'webhooks-failed',
        `${webhooks.failed} event(s) to the company's CRM failed for good: see npm run webhooks -- --list, then --resend REFERENCE`,
        { failedWebhooks: webhooks.failed },
      );
    }
    if (webhooks && health.problems.includes('webhooks-delayed')) {
      await options.alerts.raise(
        'webhooks-delayed',
        `An event to the company's CRM has waited ${Math.round((webhooks.oldestUndeliveredSeconds ?? 0) / 60)} minutes: the CRM is not taking them (the e-mails still go)`,
        { pendingWebhooks: webhooks.pending, oldestUndeliveredSeconds: webhooks.oldestUndeliveredSeconds },
      );
    }
    const storage = health.photoStorage;
    if (storage && storage.state !== 'ok') {
      const mb = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`;
      await options.alerts.raise(
        'photo-storage-full',
        storage.state === 'full'
          ? `Enquiry photos are not being kept: they take ${mb(storage.usedBytes)} of ENQUIRY_PHOTOS_MAX_MB (${mb(storage.maxBytes)}). Enquiries are still stored and notified.`
          : `Enquiry photos are not being kept: ${mb(storage.freeBytes)} free on their disk, below ENQUIRY_PHOTOS_MIN_FREE_MB (${mb(storage.minFreeBytes)}). Enquiries are still stored and notified.`,
        { ...storage },
      );
    }
    return health;
  }

  return {
    check,
    start() {
      if (timer) return;
      timer = setInterval(
        () => void check().catch((error: unknown) => console.error('[monitor] check failed:', error)),
        options.intervalMs ?? MONITOR_INTERVAL_MS,
      );
      timer.unref?.();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
