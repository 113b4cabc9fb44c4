import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Client } from '@libsql/client';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer';
import { orm } from '@/server/base/db';
import { doublingDelay } from '@/server/base/doubling-delay';
import { attemptsSchedule, createWorker, type JobOutcome } from '@/server/delivery/worker-runner';
import { enquiries, enquiryNotifications as jobs } from '@/server/base/db-schema';
import {
  isMessageTooLarge,
  isPermanentSmtpFailure,
  isSmtpConfigurationFailure,
  PermanentMailError,
  type Mailer,
} from '@/server/delivery/mailer';
import { acknowledgementEmail, NotAcknowledgeable } from '@/server/delivery/acknowledgement-email';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  notificationEmail,
  photosFollowUpEmail,
  photosThatFit,
  type ClaimLinks,
  type PhotoForEmail,
} from '@/server/delivery/notification-email';
import { photosOf, photosRoot, readPhotos, type StoredPhoto } from '@/server/ledger/photo-store';
import { findEnquiry, replacedEnquiry, type StoredEnquiry } from '@/server/ledger/enquiry-store';
import { STAFF_LINK_PREFIX, STATUS_LINK_PREFIX } from '@/lib/claim-paths.mjs';
import { claimLinkToken } from '@/server/claims/claim-links';
import { organisationAwaitingProof } from '@/server/claims/instruction-proof';
import { findStageChange } from '@/server/claims/stage-change';
import { appointmentCancelledAt, bookedAppointment } from '@/server/claims/survey-booking';
import { surveyInvite } from '@/server/claims/survey-invite';
import { stageEmail } from '@/server/delivery/stage-email';
import { surveyReminderEmail } from '@/server/delivery/survey-reminder-email';

const LEASE_MS = 2 * 60_000;

/** After a failed attempt: 30 s, 1 min, 2 min … capped at 1 h; given up after 20 attempts. */
const mailSchedule = attemptsSchedule(20, 30_000, 60 * 60_000);

/** How long delivery pauses after the relay refused the site's settings: 1 min, doubling to 15 min. */
const pauseMs = doublingDelay(60_000, 15 * 60_000);

/** How long a photos follow-up waits, after its notification's next attempt, while the notification is not sent yet. */
const FOLLOW_UP_WAIT_MS = 30_000;

type OutboxWorkerOptions = {
  db: Client;
  mailer: Mailer;
  from: string;
  to: string;
  /** How long the started worker waits between rounds when nothing wakes it. */
  pollMs: number;
  now?: () => number;
  /** Waits between attempts to record a send (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
  owner?: string;
  log?: (line: string) => void;
  /** Where the enquiries' photos are (default ENQUIRY_PHOTOS_DIR). */
  photosRoot?: string;
  /** A notification's size at most; the photos that do not fit are listed, not attached (SMTP_MAX_MESSAGE_MB). */
  maxMessageBytes?: number;
  /** Told when delivery pauses because the relay refused the site's settings (login, TLS). */
  onPause?: (detail: string) => void;
  /** The site's address (SITE_URL): the e-mails then carry the claim's signed links; none without it. */
  siteUrl?: string;
};

export type OutboxWorkerState = { pausedUntil: number | null; pauseReason: string | null };

type Job = typeof jobs.$inferSelect;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The enquiry's job of this kind (of 'photos', the follow-up of photos that came with the enquiry, not a batch added later). */
async function jobOf(db: Client, enquiryId: number, kind: Job['kind']) {
  const [found] = await orm(db)
    .select({ status: jobs.status, nextAttemptMs: jobs.nextAttemptMs })
    .from(jobs)
    .where(and(eq(jobs.enquiryId, enquiryId), eq(jobs.kind, kind), isNull(jobs.photosFrom)));
  return found;
}

/** Where the photos added later from the status page begin: they go in follow-ups of their own, never in the notification. */
async function laterPhotosFrom(db: Client, enquiryId: number): Promise<number> {
  const [found] = await orm(db)
    .select({ first: sql<number | null>`min(${jobs.photosFrom})` })
    .from(jobs)
    .where(and(eq(jobs.enquiryId, enquiryId), eq(jobs.kind, 'photos')));
  return found?.first ?? Number.POSITIVE_INFINITY;
}

/** A batch added later: its photos, up to where the next batch begins. */
async function photosOfBatch(db: Client, job: Job, first: number, stored: readonly StoredPhoto[]) {
  const [next] = await orm(db)
    .select({ first: sql<number | null>`min(${jobs.photosFrom})` })
    .from(jobs)
    .where(and(eq(jobs.enquiryId, job.enquiryId), eq(jobs.kind, 'photos'), gt(jobs.photosFrom, first)));
  const end = next?.first ?? Number.POSITIVE_INFINITY;
  return stored.filter((photo) => photo.position >= first && photo.position < end);
}

/** The claim's status page (for its sender) and staff page (for the company), by signed link. */
async function claimLinks(options: OutboxSettings, enquiryId: number): Promise<ClaimLinks | undefined> {
  if (!options.siteUrl) return undefined;
  const { db } = options;
  const [status, update] = await Promise.all([claimLinkToken(db, 'status', enquiryId), claimLinkToken(db, 'update', enquiryId)]);
  if (!status || !update) return undefined;
  return { status: `${options.siteUrl}${STATUS_LINK_PREFIX}${status}`, update: `${options.siteUrl}${STAFF_LINK_PREFIX}${update}` };
}

/** The photos, with the bytes of those that fit in one message. */
async function photosForEmail(options: OutboxSettings, photos: readonly StoredPhoto[]): Promise<PhotoForEmail[]> {
  const fit = photosThatFit(photos, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
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

/** A message with photos; if the relay refuses it for its size, at once again without attachments: the company always gets the text. */
async function sendWithPhotos(
  options: OutboxSettings,
  job: Job,
  photos: readonly PhotoForEmail[],
  mail: (list: readonly PhotoForEmail[]) => Mail.Options,
) {
  const full = mail(photos);
  try {
    return await options.mailer.send(full);
  } catch (error) {
    if (!isMessageTooLarge(error) || !full.attachments?.length) throw error;
    options.log(`[outbox] job ${job.id}: the relay refused the message for its size; sending it without photos`);
    return options.mailer.send(mail(photos.map((photo) => ({ ...photo, content: null }))));
  }
}

type Sender = (job: Job, enquiry: StoredEnquiry, notification: { status: string } | undefined) => Promise<{ messageId: string }>;

/** The company's notification of an enquiry, with the photos that came with it (or word that they follow). */
async function sendNotification(options: OutboxSettings, job: Job, enquiry: StoredEnquiry) {
  const { db, from, to } = options;
  // The photos first, then where the later batches begin: a batch committed in between is then
  // either not seen at all or seen with its follow-up, never attached here as well.
  const all = await photosOf(db, enquiry.id);
  const later = await laterPhotosFrom(db, enquiry.id);
  const stored = all.filter((photo) => photo.position < later);
  // Looked up after the photos: the store adds late photos and their follow-up in one batch, so photos
  // seen here with no follow-up are this notification's, and a follow-up seen here carries them all.
  const toFollow = stored.length > 0 && (await jobOf(db, enquiry.id, 'photos')) ? stored.length : 0;
  const photos = toFollow > 0 ? [] : await photosForEmail(options, stored);
  const links = await claimLinks(options, enquiry.id);
  const replaces = await replacedEnquiry(db, enquiry.id);
  return sendWithPhotos(options, job, photos, (list) =>
    notificationEmail(enquiry, { from, to, photos: list, photosToFollow: toFollow, links, replaces }),
  );
}

/** The message of each kind of job; each resolves to the Message-ID the relay accepted. */
function outboxSenders(options: OutboxSettings): Record<Job['kind'], Sender> {
  const { db, mailer, from, to } = options;
  return {
    acknowledgement: async (_job, enquiry) =>
      mailer.send(
        acknowledgementEmail(enquiry, {
          from,
          replyTo: to,
          links: await claimLinks(options, enquiry.id),
          confirmFor: await organisationAwaitingProof(options.db, enquiry.id),
        }),
      ),
    stage: async (job, enquiry) => {
      const change = await findStageChange(db, job.stageChangeId);
      if (!change) throw new PermanentMailError(`its change of stage (${job.stageChangeId}) is missing`);
      const statusLink = (await claimLinks(options, enquiry.id))?.status;
      const message = stageEmail(enquiry, change, { from, replyTo: to, statusLink });
      // A survey booked or moved: the visit as a calendar invite; cancelled: the invite's cancellation
      // (same UID, a higher SEQUENCE). The MIME part's method is the invite's.
      const booked = change.stage === 'survey-booked' ? await bookedAppointment(db, enquiry.id) : null;
      const cancelled = booked ? null : await appointmentCancelledAt(db, enquiry.id, Date.parse(change.changedAt));
      const appointment = booked ?? cancelled;
      if (appointment && enquiry.reference) {
        const method = booked ? 'REQUEST' : 'CANCEL';
        message.icalEvent = {
          method,
          filename: 'survey.ics',
          content: surveyInvite(appointment, { reference: enquiry.reference, attendee: enquiry.email, method }),
        };
      }
      return mailer.send(message);
    },
    reminder: async (job, enquiry) => {
      // Dropped when the visit moves or is cancelled; should one be claimed just then, the visit it is for
      // is no longer booked at that date, and it is not sent.
      const [change, appointment] = await Promise.all([findStageChange(db, job.stageChangeId), bookedAppointment(db, enquiry.id)]);
      if (!change || !appointment || change.nextDate !== appointment.date)
        throw new PermanentMailError('its survey visit was moved or cancelled');
      const statusLink = (await claimLinks(options, enquiry.id))?.status;
      return mailer.send(surveyReminderEmail(enquiry, { when: appointment.words, version: change.id }, { from, replyTo: to, statusLink }));
    },
    photos: async (job, enquiry, notification) => {
      if (notification?.status !== 'sent')
        throw new PermanentMailError('its notification has not gone out (requeue both with --retry-failed)');
      const laterFrom = job.photosFrom;
      const stored = await photosOf(db, enquiry.id);
      const before = laterFrom === null ? await laterPhotosFrom(db, enquiry.id) : 0;
      const batch =
        laterFrom === null ? stored.filter((photo) => photo.position < before) : await photosOfBatch(db, job, laterFrom, stored);
      const photos = await photosForEmail(options, batch);
      return sendWithPhotos(options, job, photos, (list) => photosFollowUpEmail(enquiry, { from, to, photos: list, addedFrom: laterFrom }));
    },
    notification: (job, enquiry) => sendNotification(options, job, enquiry),
  };
}

/** An urgent enquiry's notification ahead of every other job. */
const urgentNotificationFirst = sql`CASE WHEN ${jobs.kind} = 'notification' AND EXISTS (SELECT 1 FROM ${enquiries}
      WHERE ${enquiries.id} = ${jobs.enquiryId} AND ${enquiries.urgent} = 1) THEN 0 ELSE 1 END`;

type OutboxSettings = OutboxWorkerOptions & { now: () => number; log: (line: string) => void };

/** Delivery paused after the relay refused the site's settings: until when, why, and how many times in a row. */
type Pause = { until: number; reason: string; times: number };

/**
 * What delivering one job of the outbox means: the message of its kind, sent (a follow-up waits while its
 * notification is pending; a relay that refuses the site's settings pauses delivery). The worker runner
 * claims, records and retries; this says what one e-mail is.
 */
function outboxHandler(options: OutboxSettings, pause: Pause) {
  const { db, now } = options;
  const senders = outboxSenders(options);

  /** A send that failed: retried later, failed for good, or (the relay refused the site's settings) delivery paused. */
  function sendFailed(job: Job, error: unknown, enquiryFound: boolean): JobOutcome<typeof jobs> {
    const detail = messageOf(error).slice(0, 1000);
    if (enquiryFound && isSmtpConfigurationFailure(error)) {
      // Not this message's fault: give the attempt back, keep the job pending and pause delivery.
      pause.times += 1;
      pause.until = now() + pauseMs(pause.times);
      pause.reason = detail;
      return {
        kind: 'given-back',
        changes: { nextAttemptMs: pause.until, lastError: detail },
        line: `delivery paused until ${new Date(pause.until).toISOString()}: the relay refused the site's settings: ${detail}`,
        afterLogged: () => options.onPause?.(detail),
      };
    }
    const permanent = !enquiryFound || error instanceof NotAcknowledgeable || isPermanentSmtpFailure(error);
    return {
      kind: 'failed',
      error: detail,
      permanent,
      line: (failed) => `job ${job.id} attempt ${job.attempts} failed${failed ? ' permanently' : ', will retry'}: ${detail}`,
    };
  }

  /**
   * Sent once the relay has accepted it: marked sent, trying again while the database refuses the write.
   * Nothing else is claimed meanwhile, so this worker never sends it a second time. A stopping worker
   * gives up after RECORD_RETRY_DELAYS_MS: after its lease the job is sent again, with the same
   * Message-ID, as after a crash between the send and the record.
   */
  const sent = (job: Job, messageId: string): JobOutcome<typeof jobs> => ({
    kind: 'done',
    changes: () => ({ status: 'sent', sentAt: new Date(now()).toISOString(), messageId, lastError: null }),
    line: `job ${job.id} (enquiry ${job.enquiryId}, ${job.kind}) sent via ${options.mailer.describe}`,
    leasePassed: `job ${job.id}: sent, but the lease had passed to another worker`,
    notRecorded: (error, givingUp) => {
      const next = givingUp
        ? 'the worker is stopping; it may be sent again after its lease'
        : 'still trying, and sending nothing else meanwhile';
      return `job ${job.id}: the relay accepted it (${messageId}) but it could not be recorded; ${next}: ${messageOf(error)}`;
    },
  });

  return async function deliverOne(job: Job): Promise<JobOutcome<typeof jobs>> {
    const enquiry = await findEnquiry(db, job.enquiryId);
    const notification = job.kind === 'photos' ? await jobOf(db, job.enquiryId, 'notification') : undefined;
    if (enquiry && notification?.status === 'pending') {
      // A follow-up waits while its notification is pending: its attempt is given back and it is due again later.
      const until = Math.max(notification.nextAttemptMs, now()) + FOLLOW_UP_WAIT_MS;
      return {
        kind: 'given-back',
        changes: { nextAttemptMs: until },
        line: `job ${job.id} (enquiry ${job.enquiryId}, photos) waits for its notification`,
      };
    }
    let messageId: string;
    try {
      if (!enquiry) throw new Error(`enquiry ${job.enquiryId} is missing`);
      ({ messageId } = await senders[job.kind](job, enquiry, notification));
    } catch (error) {
      return sendFailed(job, error, enquiry !== null);
    }
    pause.times = 0;
    return sent(job, messageId);
  };
}

/**
 * Delivers the jobs of the outbox (enquiry_notifications): company notifications, the senders'
 * acknowledgements and follow-ups with photos that came late (each after its notification): an urgent
 * enquiry's notification first, then oldest due first. A round claims a job with a lease, sends it,
 * records it and claims the next, until none is due; the started worker then sleeps `pollMs` or until
 * woken. The lease is the guard against sending twice: several workers (or a restarted one) never hold
 * the same job at once, and only the worker still holding it marks it sent.
 */
export function createOutboxWorker(options: OutboxWorkerOptions) {
  const settings: OutboxSettings = { ...options, now: options.now ?? Date.now, log: options.log ?? ((line: string) => console.log(line)) };
  const { now } = settings;
  const pause: Pause = { until: 0, reason: '', times: 0 };
  const isPaused = () => pause.until > now();
  const worker = createWorker({
    name: 'outbox',
    db: options.db,
    table: jobs,
    owner: options.owner ?? randomUUID(),
    leaseMs: LEASE_MS,
    schedule: mailSchedule,
    claimDue: (claim) => claim({ orderBy: [urgentNotificationFirst, jobs.nextAttemptMs, jobs.id] }),
    handle: outboxHandler(settings, pause),
    // Stops between jobs when the relay refused the settings (and, as every worker, when stopping).
    mayClaim: () => !isPaused(),
    pollMs: options.pollMs,
    roundFailed: (error) => `poll failed: ${messageOf(error)}`,
    summarize: (reports) => reports.length,
    log: settings.log,
    now,
    sleep: options.sleep,
  });

  return {
    /** Claim, send, record: every job that is due now; resolves to how many were attempted. */
    runOnce: worker.runOnce,
    state(): OutboxWorkerState {
      return isPaused() ? { pausedUntil: pause.until, pauseReason: pause.reason } : { pausedUntil: null, pauseReason: null };
    },
    /** Runs rounds until stopped: each after `pollMs`, or at once when woken (a stopped worker stays stopped). */
    start: () => worker.start(),
    /** Ask for a delivery round now (after an enquiry was stored). */
    wake: worker.wake,
    /** Stops claiming; resolves when the job being sent (if any) is finished and recorded. */
    stop: worker.stop,
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
