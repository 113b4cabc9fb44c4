import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer';
import { orm } from '@/server/db';
import { doublingDelay } from '@/server/doubling-delay';
import { enquiries, enquiryNotifications as jobs } from '@/server/db-schema';
import {
  isMessageTooLarge,
  isPermanentSmtpFailure,
  isSmtpConfigurationFailure,
  PermanentMailError,
  type Mailer,
} from '@/server/enquiries/mailer';
import { acknowledgementEmail, NotAcknowledgeable } from '@/server/enquiries/acknowledgement-email';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  notificationEmail,
  photosFollowUpEmail,
  photosThatFit,
  type PhotoForEmail,
} from '@/server/enquiries/notification-email';
import { photosOf, photosRoot, readPhotos, type StoredPhoto } from '@/server/enquiries/photo-store';
import { findEnquiry, type JobKind, type StoredEnquiry } from '@/server/enquiries/store';

export const MAX_ATTEMPTS = 20;
export const LEASE_MS = 2 * 60_000;

/** After a failed attempt: 30 s, 1 min, 2 min … capped at 1 h. */
export const backoffMs = doublingDelay(30_000, 60 * 60_000);

/** How long delivery pauses after the relay refused the site's settings: 1 min, doubling to 15 min. */
export const pauseMs = doublingDelay(60_000, 15 * 60_000);

/** How long a photos follow-up waits, after its notification's next attempt, while the notification is not sent yet. */
export const FOLLOW_UP_WAIT_MS = 30_000;

/** Waits between attempts to record a send the relay accepted (the database may be briefly locked). */
export const RECORD_RETRY_DELAYS_MS = [50, 200, 1000, 3000] as const;

export type OutboxWorkerOptions = {
  db: Client;
  mailer: Mailer;
  from: string;
  to: string;
  pollMs: number;
  now?: () => number;
  owner?: string;
  backoff?: (attempts: number) => number;
  maxAttempts?: number;
  leaseMs?: number;
  pause?: (consecutivePauses: number) => number;
  recordRetryDelaysMs?: readonly number[];
  log?: (line: string) => void;
  /** Where the enquiries' photos are (default ENQUIRY_PHOTOS_DIR). */
  photosRoot?: string;
  /** A notification's size at most; the photos that do not fit are listed, not attached (SMTP_MAX_MESSAGE_MB). */
  maxMessageBytes?: number;
  /** Told when delivery pauses because the relay refused the site's settings (login, TLS). */
  onPause?: (detail: string) => void;
};

export type OutboxWorkerState = { pausedUntil: number | null; pauseReason: string | null; unrecordedSends: number };

type ClaimedJob = { id: number; enquiryId: number; kind: JobKind; attempts: number };

/**
 * Delivers the jobs of the outbox (enquiry_notifications): company notifications, the senders'
 * acknowledgements and follow-ups with photos that came late (each after its notification): an
 * urgent enquiry's notification first, then oldest due first. Each job is claimed with one UPDATE … RETURNING that sets a lease, so several workers
 * (or a restarted one) never send the same job at the same time, and it is marked sent only by the
 * worker still holding the lease.
 */
export function createOutboxWorker(options: OutboxWorkerOptions) {
  const { db, mailer } = options;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? randomUUID();
  const backoff = options.backoff ?? backoffMs;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const pause = options.pause ?? pauseMs;
  const recordRetryDelays = options.recordRetryDelaysMs ?? RECORD_RETRY_DELAYS_MS;
  const log = options.log ?? ((line: string) => console.log(line));

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  // Set by stop() only: runOnce() also works on a worker that was never started (the CLI, the tests).
  let stopRequested = false;
  let again = false;
  let pausedUntil = 0;
  let pauseReason: string | null = null;
  let consecutivePauses = 0;
  // Jobs the relay accepted whose 'sent' could not be written yet: never sent again by this process,
  // only recorded (a database error after the relay's acceptance must not cause a second send).
  const unrecorded = new Map<number, string>();
  const isPaused = () => pausedUntil > now();

  /** The photos, with the bytes of those that fit in one message of `maxMessageBytes`. */
  async function photosForEmail(photos: readonly StoredPhoto[], maxMessageBytes: number): Promise<PhotoForEmail[]> {
    const fit = photosThatFit(photos, maxMessageBytes);
    // A missing file (deleted by hand) does not hold up the enquiry: it is sent, saying so.
    const read = await readPhotos(
      options.photosRoot ?? photosRoot(),
      photos.filter((photo) => fit.has(photo.position)),
    );
    return photos.map((photo) => {
      const content = read.find((entry) => entry.position === photo.position);
      return content ? { ...photo, content: content.content, missing: content.content === null } : { ...photo, content: null };
    });
  }

  /** The enquiry's outbox job of this kind, if it has one. */
  async function jobOf(enquiryId: number, kind: JobKind) {
    const [found] = await orm(db)
      .select({ status: jobs.status, nextAttemptMs: jobs.nextAttemptMs })
      .from(jobs)
      .where(and(eq(jobs.enquiryId, enquiryId), eq(jobs.kind, kind)));
    return found;
  }

  /** The notification, with the photos unless a follow-up carries them. */
  async function sendNotification(enquiry: StoredEnquiry, job: ClaimedJob) {
    const stored = await photosOf(db, enquiry.id);
    // Looked up after the photos: the store adds late photos and their follow-up in one batch, so photos
    // seen here with no follow-up are this notification's, and a follow-up seen here carries them all.
    const toFollow = stored.length > 0 && (await jobOf(enquiry.id, 'photos')) ? stored.length : 0;
    const photos = toFollow > 0 ? [] : await photosForEmail(stored, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    return sendWithPhotos(job, photos, (list) =>
      notificationEmail(enquiry, { from: options.from, to: options.to, photos: list, photosToFollow: toFollow }),
    );
  }

  /** The photos that came after the notification had gone out, once it is sent. */
  async function sendPhotosFollowUp(enquiry: StoredEnquiry, job: ClaimedJob, notification: { status: string } | undefined) {
    if (notification?.status !== 'sent')
      throw new PermanentMailError('its notification has not gone out (requeue both with --retry-failed)');
    const photos = await photosForEmail(await photosOf(db, enquiry.id), options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    return sendWithPhotos(job, photos, (list) => photosFollowUpEmail(enquiry, { from: options.from, to: options.to, photos: list }));
  }

  /** While its notification is pending, a follow-up waits: its attempt is given back and it is due again later. */
  async function waitForNotification(job: ClaimedJob, notificationDueMs: number): Promise<void> {
    const until = Math.max(notificationDueMs, now()) + FOLLOW_UP_WAIT_MS;
    await orm(db)
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} - 1`, nextAttemptMs: until, leaseOwner: null, leaseUntilMs: null })
      .where(and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner)));
    log(`[outbox] job ${job.id} (enquiry ${job.enquiryId}, photos) waits for its notification`);
  }

  /** A message with photos; if the relay refuses it for its size, at once again without attachments: the company always gets the text. */
  async function sendWithPhotos(job: ClaimedJob, photos: readonly PhotoForEmail[], mail: (list: readonly PhotoForEmail[]) => Mail.Options) {
    const full = mail(photos);
    try {
      return await mailer.send(full);
    } catch (error) {
      if (!isMessageTooLarge(error) || !full.attachments?.length) throw error;
      log(`[outbox] job ${job.id}: the relay refused the message for its size; sending it without photos`);
      return mailer.send(mail(photos.map((photo) => ({ ...photo, content: null }))));
    }
  }

  async function claim(): Promise<ClaimedJob | null> {
    const current = now();
    const claimable = and(eq(jobs.status, 'pending'), or(isNull(jobs.leaseUntilMs), lt(jobs.leaseUntilMs, current)));
    // An urgent enquiry's notification goes ahead of every other job that is due; the rest, oldest due first.
    const urgentNotification = sql`CASE WHEN ${jobs.kind} = 'notification' AND EXISTS (SELECT 1 FROM ${enquiries}
      WHERE ${enquiries.id} = ${jobs.enquiryId} AND ${enquiries.urgent} = 1) THEN 0 ELSE 1 END`;
    const nextDue = orm(db)
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(claimable, lte(jobs.nextAttemptMs, current)))
      .orderBy(urgentNotification, jobs.nextAttemptMs, jobs.id)
      .limit(1);
    // One statement: the job is re-checked as it is leased, so two workers never take the same one.
    const [claimed] = await orm(db)
      .update(jobs)
      .set({ leaseOwner: owner, leaseUntilMs: current + leaseMs, attempts: sql`${jobs.attempts} + 1` })
      .where(and(eq(jobs.id, nextDue), claimable))
      .returning({ id: jobs.id, enquiryId: jobs.enquiryId, kind: jobs.kind, attempts: jobs.attempts });
    return claimed ?? null;
  }

  async function markSent(jobId: number, messageId: string): Promise<boolean> {
    const marked = await orm(db)
      .update(jobs)
      .set({ status: 'sent', sentAt: new Date(now()).toISOString(), messageId, lastError: null, leaseOwner: null, leaseUntilMs: null })
      .where(and(eq(jobs.id, jobId), eq(jobs.leaseOwner, owner), eq(jobs.status, 'pending')));
    return marked.rowsAffected === 1;
  }

  /** Records an accepted send, retrying while the database is unavailable; remembers it if it cannot. */
  async function recordSent(job: ClaimedJob, messageId: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const marked = await markSent(job.id, messageId);
        unrecorded.delete(job.id);
        if (marked) log(`[outbox] job ${job.id} (enquiry ${job.enquiryId}, ${job.kind}) sent via ${mailer.describe}`);
        else log(`[outbox] job ${job.id}: sent, but the lease had passed to another worker`);
        return;
      } catch (error) {
        const delay = recordRetryDelays[attempt];
        if (delay === undefined) {
          unrecorded.set(job.id, messageId);
          log(
            `[outbox] job ${job.id}: the relay accepted it (${messageId}) but it could not be recorded yet; it will not be sent again: ${error instanceof Error ? error.message : String(error)}`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async function deliver(job: ClaimedJob): Promise<void> {
    const alreadySent = unrecorded.get(job.id);
    if (alreadySent !== undefined) return recordSent(job, alreadySent);
    const enquiry = await findEnquiry(db, job.enquiryId);
    const notification = job.kind === 'photos' ? await jobOf(job.enquiryId, 'notification') : undefined;
    if (enquiry && notification?.status === 'pending') return waitForNotification(job, notification.nextAttemptMs);
    let messageId: string;
    try {
      if (!enquiry) throw new Error(`enquiry ${job.enquiryId} is missing`);
      ({ messageId } =
        job.kind === 'acknowledgement'
          ? await mailer.send(acknowledgementEmail(enquiry, { from: options.from, replyTo: options.to }))
          : job.kind === 'photos'
            ? await sendPhotosFollowUp(enquiry, job, notification)
            : await sendNotification(enquiry, job));
    } catch (error) {
      const detail = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      if (enquiry && isSmtpConfigurationFailure(error)) {
        // Not this message's fault: give the attempt back, keep the job pending and pause delivery.
        consecutivePauses += 1;
        pausedUntil = now() + pause(consecutivePauses);
        pauseReason = detail;
        await orm(db)
          .update(jobs)
          .set({ attempts: sql`${jobs.attempts} - 1`, nextAttemptMs: pausedUntil, lastError: detail, leaseOwner: null, leaseUntilMs: null })
          .where(and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner)));
        log(`[outbox] delivery paused until ${new Date(pausedUntil).toISOString()}: the relay refused the site's settings: ${detail}`);
        options.onPause?.(detail);
        return;
      }
      const permanent = !enquiry || error instanceof NotAcknowledgeable || isPermanentSmtpFailure(error);
      const giveUp = permanent || job.attempts >= maxAttempts;
      await orm(db)
        .update(jobs)
        .set({
          status: giveUp ? 'failed' : 'pending',
          nextAttemptMs: now() + backoff(job.attempts),
          lastError: detail,
          leaseOwner: null,
          leaseUntilMs: null,
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner)));
      log(`[outbox] job ${job.id} attempt ${job.attempts} failed${giveUp ? ' permanently' : ', will retry'}: ${detail}`);
      return;
    }
    consecutivePauses = 0;
    pauseReason = null;
    await recordSent(job, messageId);
  }

  /** Sends recorded nowhere yet (see recordSent): written before anything new is claimed. */
  async function flushUnrecorded(): Promise<void> {
    for (const [jobId, messageId] of [...unrecorded]) {
      if ((await markSent(jobId, messageId).catch(() => null)) !== null) unrecorded.delete(jobId);
    }
  }

  /** Delivers every job that is due now; resolves to how many were attempted. */
  async function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let attempted = 0;
      do {
        again = false;
        await flushUnrecorded();
        // Stops between jobs when the server shuts down or the relay refused the settings.
        while (!stopRequested && !isPaused()) {
          const job = await claim();
          if (!job) break;
          attempted += 1;
          await deliver(job);
        }
      } while (again && !stopRequested);
      return attempted;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => log(`[outbox] poll failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => schedule(options.pollMs));
    }, delay);
    timer.unref?.();
  }

  return {
    owner,
    runOnce,
    state(): OutboxWorkerState {
      return {
        pausedUntil: isPaused() ? pausedUntil : null,
        pauseReason: isPaused() ? pauseReason : null,
        unrecordedSends: unrecorded.size,
      };
    },
    start() {
      if (!stopped) return;
      stopped = false;
      stopRequested = false;
      schedule(0);
    },
    /** Ask for a delivery round now (after an enquiry was stored). */
    wake() {
      if (!stopped) schedule(0);
    },
    /** Stops claiming; resolves when the job being sent (if any) is finished and recorded. */
    async stop() {
      stopped = true;
      stopRequested = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;

/** Requeues permanently failed jobs (`npm run enquiries -- --retry-failed`); returns how many. */
export async function retryFailedJobs(db: Client, now: number = Date.now()): Promise<number> {
  const result = await orm(db)
    .update(jobs)
    .set({ status: 'pending', attempts: 0, nextAttemptMs: now, leaseOwner: null, leaseUntilMs: null })
    .where(eq(jobs.status, 'failed'));
  return result.rowsAffected;
}
