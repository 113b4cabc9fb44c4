import 'server-only';
import type { Client } from '@libsql/client';
import { LOG_APPLICATION, type ErrorLogRecord } from '@/lib/error-log';
import { crmBaseUrl } from '@/lib/public-env';
import { storeErrorLog } from '@/server/error-log/store';
import { LOG_SOURCE_BACKEND } from '@/server/error-log/server-entries';

/** How often one condition may raise an alert while it lasts. */
const ALERT_REPEAT_MS = 60 * 60_000;

type AlertCondition =
  'notification-failed' | 'notifications-delayed' | 'delivery-paused' | 'photo-storage-full' | 'webhooks-failed' | 'webhooks-delayed';

/** A critical entry from the server itself, as the browser's logger would write one. */
function operatorAlertRecord(condition: AlertCondition, message: string, metadata: Record<string, unknown>): ErrorLogRecord {
  return {
    application: LOG_APPLICATION,
    level: 'critical',
    message,
    stack: null,
    metadata: { condition, ...metadata },
    source: LOG_SOURCE_BACKEND,
    userId: null,
    statusCode: null,
    category: 'server',
    path: null,
    method: null,
    userAgent: null,
  };
}

type AlertSink = (record: ErrorLogRecord) => Promise<void>;

/**
 * Where the server's alerts go: the site's own error log (`npm run logs`, one stdout line), and the
 * CRM's `POST /api/error-logs` too when it has one (NEXT_PUBLIC_CRM_URL), like the browser's entries.
 */
export function createAlertSink(options: { db?: () => Promise<Client>; crmUrl?: string } = {}): AlertSink {
  const crmUrl = options.crmUrl ?? crmBaseUrl;
  return async (record) => {
    try {
      await storeErrorLog(record, { reportedBy: 'server', clientAddress: 'server', db: options.db ? await options.db() : undefined });
    } catch (error) {
      console.error('[alerts] could not store an alert:', error instanceof Error ? error.message : error);
    }
    if (!crmUrl) return;
    try {
      const response = await fetch(`${crmUrl}/api/error-logs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(record),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) console.error(`[alerts] the CRM answered ${response.status} to an alert`);
    } catch (error) {
      console.error('[alerts] could not reach the CRM with an alert:', error instanceof Error ? error.message : error);
    }
  };
}

/** Raises each condition at most once per ALERT_REPEAT_MS while it lasts. */
export function createOperatorAlerts(options: { sink?: AlertSink; now?: () => number; repeatMs?: number } = {}) {
  const sink = options.sink ?? createAlertSink();
  const now = options.now ?? Date.now;
  const repeatMs = options.repeatMs ?? ALERT_REPEAT_MS;
  const lastRaised = new Map<AlertCondition, number>();
  return {
    /** Resolves true when an alert went out, false when the same condition was raised within the hour. */
    async raise(condition: AlertCondition, message: string, metadata: Record<string, unknown> = {}): Promise<boolean> {
      const current = now();
      const last = lastRaised.get(condition);
      if (last !== undefined && current - last < repeatMs) return false;
      lastRaised.set(condition, current);
      await sink(operatorAlertRecord(condition, message, metadata));
      return true;
    },
  };
}

export type OperatorAlerts = ReturnType<typeof createOperatorAlerts>;
