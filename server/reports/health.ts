import 'server-only';
import type { Client } from '@libsql/client';
import { and, count, eq, inArray, max, min } from 'drizzle-orm';
import { countClaimsByStage, type ClaimCounts } from '@/server/reports/claim-counts';
import { webhookFigures } from '@/server/crm/webhook-status';
import { orm } from '@/server/base/db';
import { digests, enquiries, enquiryNotifications as jobs } from '@/server/base/db-schema';
import { loadEnquiryConfig } from '@/server/intake/enquiry-settings';
import { photosRoot } from '@/server/ledger/photo-store';
import { photoStorageState, type PhotoStorage } from '@/server/ledger/photo-storage';
import { privatePlacesStillWide, type WidePlace } from '@/server/base/private-files';

/**
 * Only the company's mail counts (notifications and follow-ups with late photos): a visitor's
 * acknowledgement that bounced loses no enquiry.
 */
const companyJob = inArray(jobs.kind, ['notification', 'photos']);

/** A notification still pending after this long means enquiries are not reaching the company. */
export const STALE_PENDING_MS = 15 * 60_000;
/**
 * A CRM event still undelivered after this long means the CRM has not heard of an enquiry for a while:
 * the worker retries for a day, but the company should know long before it gives up.
 */
export const STALE_WEBHOOK_MS = 60 * 60_000;

export type HealthProblem =
  | 'database-unreachable'
  | 'notifications-failed'
  | 'notifications-delayed'
  | 'delivery-paused'
  /** Photos are not kept: past ENQUIRY_PHOTOS_MAX_MB, or the disk below ENQUIRY_PHOTOS_MIN_FREE_MB. */
  | 'photo-storage-full'
  /** A place holding personal data (the database, photos, saved e-mails) can be read by other users of the machine. */
  | 'personal-data-readable'
  /** An event to the company's CRM (CRM_WEBHOOK_URL) failed for good: refused, or not delivered within a day. */
  | 'webhooks-failed'
  /** The oldest event still waiting for the CRM has waited more than STALE_WEBHOOK_MS. */
  | 'webhooks-delayed';

/** The CRM's webhooks, when they are on: events waiting, failed for good, and how long the oldest waiting one has. */
type WebhookHealth = { pending: number; failed: number; oldestUndeliveredSeconds: number | null };

export type EnquiryHealth = {
  healthy: boolean;
  problems: HealthProblem[];
  database: 'ok' | 'unreachable';
  pendingNotifications: number;
  oldestPendingSeconds: number | null;
  failedNotifications: number;
  lastSentAt: string | null;
  /** When the last digest to the company went out (server/reports/digest/schedule.ts). */
  lastDigestAt: string | null;
  /** When this process's worker paused delivery (the relay refused the settings), until when and why. */
  pausedUntil: string | null;
  pauseReason: string | null;
  /** The photo storage's state, when it was checked. */
  photoStorage: PhotoStorage | null;
  /** Places holding personal data that other users of the machine can read, when checked. */
  readablePlaces: WidePlace[] | null;
  /** The accepted enquiries by the stage each is at, and those past their next date, when asked for and the database answered. */
  claims: ClaimCounts | null;
  /** The CRM's webhooks, when asked for (they are on) and the database answered; null otherwise. */
  webhooks: WebhookHealth | null;
};

type PauseState = { pausedUntil: number | null; pauseReason: string | null };

type HealthOptions = {
  now?: number;
  worker?: PauseState | null;
  photoStorage?: (db: Client) => Promise<PhotoStorage>;
  /** The places holding personal data that are not owner-only. */
  privateFiles?: () => Promise<WidePlace[]>;
  /** Whether to count the claims by stage (npm run health, the digest): not for the monitor's and /api/health's frequent checks. */
  countClaims?: boolean;
  /** Whether to check the events sent to the company's CRM: only when they are on (webhooksConfigured()). */
  webhooks?: boolean;
};

/** What the database says of delivery, read in one go: any query that fails means it is unreachable. */
type DeliveryFigures = {
  pending: number;
  oldestPendingMs: number | null;
  failed: number;
  lastSentAt: string | null;
  lastDigestAt: string | null;
  claims: ClaimCounts | null;
  webhooks: WebhookHealth | null;
  photoStorage: PhotoStorage | null;
};

/**
 * Whether enquiries are reaching the company: the database answers, no notification failed for good,
 * none has waited longer than STALE_PENDING_MS, and (in the server) delivery is not paused.
 */
export async function checkEnquiryHealth(openDb: () => Promise<Client>, options: HealthOptions = {}): Promise<EnquiryHealth> {
  const now = options.now ?? Date.now();
  const paused = options.worker?.pausedUntil ?? null;
  const pause = {
    pausedUntil: paused === null ? null : new Date(paused).toISOString(),
    pauseReason: paused === null ? null : (options.worker?.pauseReason ?? null),
  };
  let figures: DeliveryFigures;
  const readablePlaces = (await options.privateFiles?.().catch(() => null)) ?? null;
  const readable: HealthProblem[] = readablePlaces && readablePlaces.length > 0 ? ['personal-data-readable'] : [];
  try {
    figures = await readDeliveryFigures(await openDb(), now, options);
  } catch {
    return {
      healthy: false,
      problems: ['database-unreachable', ...readable],
      database: 'unreachable',
      pendingNotifications: 0,
      oldestPendingSeconds: null,
      failedNotifications: 0,
      lastSentAt: null,
      lastDigestAt: null,
      ...pause,
      photoStorage: null,
      readablePlaces,
      claims: null,
      webhooks: null,
    };
  }
  const oldest = figures.oldestPendingMs;
  const oldestPendingSeconds = oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 1000));
  const webhooks = figures.webhooks;
  const problems = problemsOf(figures, { oldestPendingSeconds, paused: paused !== null, readable });
  return {
    healthy: problems.length === 0,
    problems,
    database: 'ok',
    pendingNotifications: figures.pending,
    oldestPendingSeconds,
    failedNotifications: figures.failed,
    lastSentAt: figures.lastSentAt,
    lastDigestAt: figures.lastDigestAt,
    ...pause,
    photoStorage: figures.photoStorage,
    readablePlaces,
    claims: figures.claims,
    webhooks: webhooks && {
      pending: webhooks.pending,
      failed: webhooks.failed,
      oldestUndeliveredSeconds: webhooks.oldestUndeliveredSeconds,
    },
  };
}

/** The photo storage, the company's mail pending, failed and last sent, the last digest, and when asked the claims and the CRM's events. */
async function readDeliveryFigures(client: Client, now: number, options: HealthOptions): Promise<DeliveryFigures> {
  const db = orm(client);
  const photoStorage = (await options.photoStorage?.(client)) ?? null;
  const [pending] = await db
    .select({ count: count(), oldestReceivedMs: min(enquiries.receivedMs) })
    .from(jobs)
    .innerJoin(enquiries, eq(enquiries.id, jobs.enquiryId))
    .where(and(eq(jobs.status, 'pending'), companyJob));
  const [failed] = await db
    .select({ count: count() })
    .from(jobs)
    .where(and(eq(jobs.status, 'failed'), companyJob));
  const [sent] = await db
    .select({ lastSentAt: max(jobs.sentAt) })
    .from(jobs)
    .where(and(eq(jobs.status, 'sent'), companyJob));
  const [digest] = await db
    .select({ lastSentAt: max(digests.sentAt) })
    .from(digests)
    .where(eq(digests.status, 'sent'));
  return {
    pending: pending?.count ?? 0,
    oldestPendingMs: pending?.oldestReceivedMs ?? null,
    failed: failed?.count ?? 0,
    lastSentAt: sent?.lastSentAt ?? null,
    lastDigestAt: digest?.lastSentAt ?? null,
    // Figures for the operator, not a check: a query that fails leaves them out, not the database.
    claims: options.countClaims ? await countClaimsByStage(client, now).catch(() => null) : null,
    webhooks: options.webhooks ? await webhookFigures(client, now) : null,
    photoStorage,
  };
}

/** The problems the figures show, in the order /api/health lists them. */
function problemsOf(
  figures: DeliveryFigures,
  { oldestPendingSeconds, paused, readable }: { oldestPendingSeconds: number | null; paused: boolean; readable: HealthProblem[] },
): HealthProblem[] {
  const problems: HealthProblem[] = [];
  if (figures.failed > 0) problems.push('notifications-failed');
  if (oldestPendingSeconds !== null && oldestPendingSeconds * 1000 > STALE_PENDING_MS) problems.push('notifications-delayed');
  if (paused) problems.push('delivery-paused');
  const photoStorage = figures.photoStorage;
  if (photoStorage && photoStorage.state !== 'ok') problems.push('photo-storage-full');
  problems.push(...readable);
  const webhooks = figures.webhooks;
  if (webhooks && webhooks.failed > 0) problems.push('webhooks-failed');
  if (webhooks?.oldestUndeliveredSeconds != null && webhooks.oldestUndeliveredSeconds * 1000 > STALE_WEBHOOK_MS)
    problems.push('webhooks-delayed');
  return problems;
}

/** What GET /api/health tells an uptime monitor: no counts, no addresses, nothing personal; and when the last digest went out. */
export function publicHealth(health: EnquiryHealth): {
  status: number;
  body: { status: 'ok' | 'unhealthy'; problems: HealthProblem[]; lastDigestAt: string | null };
} {
  return {
    status: health.healthy ? 200 : 503,
    body: { status: health.healthy ? 'ok' : 'unhealthy', problems: health.problems, lastDigestAt: health.lastDigestAt },
  };
}

/** The photo storage check of this server's configuration, for checkEnquiryHealth. */
export function configuredPhotoStorage(): (db: Client) => Promise<PhotoStorage> {
  const { photosMaxBytes, photosMinFreeBytes } = loadEnquiryConfig();
  return (db) => photoStorageState(db, photosRoot(), { maxBytes: photosMaxBytes, minFreeBytes: photosMinFreeBytes });
}

/**
 * The server's check of the modes of the places holding personal data, for checkEnquiryHealth: what
 * the start-up check could not make owner-only, and the top-level places as they are now.
 */
export function configuredPrivateFilesCheck(): () => Promise<WidePlace[]> {
  return () => privatePlacesStillWide();
}
