import 'server-only';
import type { Client } from '@libsql/client';

/** A notification still pending after this long means enquiries are not reaching the company. */
export const STALE_PENDING_MS = 15 * 60_000;

export type HealthProblem = 'database-unreachable' | 'notifications-failed' | 'notifications-delayed' | 'delivery-paused';

export type EnquiryHealth = {
  healthy: boolean;
  problems: HealthProblem[];
  database: 'ok' | 'unreachable';
  pendingNotifications: number;
  oldestPendingSeconds: number | null;
  failedNotifications: number;
  lastSentAt: string | null;
  /** When this process's worker paused delivery (the relay refused the settings), until when and why. */
  pausedUntil: string | null;
  pauseReason: string | null;
};

type PauseState = { pausedUntil: number | null; pauseReason: string | null };

/**
 * Whether enquiries are reaching the company: the database answers, no notification failed for good,
 * none has waited longer than STALE_PENDING_MS, and (in the server) delivery is not paused.
 */
export async function checkEnquiryHealth(
  openDb: () => Promise<Client>,
  options: { now?: number; worker?: PauseState | null } = {},
): Promise<EnquiryHealth> {
  const now = options.now ?? Date.now();
  const paused = options.worker?.pausedUntil ?? null;
  const pause = {
    pausedUntil: paused === null ? null : new Date(paused).toISOString(),
    pauseReason: paused === null ? null : (options.worker?.pauseReason ?? null),
  };
  let row: Record<string, unknown> | undefined;
  try {
    const db = await openDb();
    const result = await db.execute(`
      SELECT
        (SELECT count(*) FROM enquiry_notifications WHERE status = 'pending') AS pending,
        (SELECT min(e.received_ms) FROM enquiry_notifications n JOIN enquiries e ON e.id = n.enquiry_id WHERE n.status = 'pending') AS oldest_pending_ms,
        (SELECT count(*) FROM enquiry_notifications WHERE status = 'failed') AS failed,
        (SELECT max(sent_at) FROM enquiry_notifications WHERE status = 'sent') AS last_sent_at`);
    row = result.rows[0] as Record<string, unknown> | undefined;
  } catch {
    return {
      healthy: false,
      problems: ['database-unreachable'],
      database: 'unreachable',
      pendingNotifications: 0,
      oldestPendingSeconds: null,
      failedNotifications: 0,
      lastSentAt: null,
      ...pause,
    };
  }
  const oldest = row?.oldest_pending_ms === null || row?.oldest_pending_ms === undefined ? null : Number(row.oldest_pending_ms);
  const oldestPendingSeconds = oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 1000));
  const failedNotifications = Number(row?.failed ?? 0);
  const problems: HealthProblem[] = [];
  if (failedNotifications > 0) problems.push('notifications-failed');
  if (oldestPendingSeconds !== null && oldestPendingSeconds * 1000 > STALE_PENDING_MS) problems.push('notifications-delayed');
  if (paused !== null) problems.push('delivery-paused');
  return {
    healthy: problems.length === 0,
    problems,
    database: 'ok',
    pendingNotifications: Number(row?.pending ?? 0),
    oldestPendingSeconds,
    failedNotifications,
    lastSentAt: row?.last_sent_at === null || row?.last_sent_at === undefined ? null : String(row.last_sent_at),
    ...pause,
  };
}

/** What GET /api/health tells an uptime monitor: no counts, no addresses, nothing personal. */
export function publicHealth(health: EnquiryHealth): { status: number; body: { status: 'ok' | 'unhealthy'; problems: HealthProblem[] } } {
  return { status: health.healthy ? 200 : 503, body: { status: health.healthy ? 'ok' : 'unhealthy', problems: health.problems } };
}
