import 'server-only';
import type { Client } from '@libsql/client';
import { HONEYPOT_FIELD } from '@/lib/contact-rules';
import { CONTACT_RESPONSES, photoText } from '@/content/contact';
import { MAX_CONCURRENT_UPLOADS, PHOTO_FIELD } from '@/lib/photo-rules';
import { claimValues, contactValues, parseContact } from '@/lib/contact-schema';
import { clientAddress, rateLimitKey } from '@/server/client-address';
import { getDb } from '@/server/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/enquiries/config';
import { wakeOutboxWorker } from '@/server/enquiries/outbox';
import { verifyRecaptcha, type Verification } from '@/server/enquiries/recaptcha';
import { readMultipartEnquiry, type MultipartEnquiry, type UploadedFile } from '@/server/enquiries/multipart-enquiry';
import { identifyPhoto, inspectPhoto, isAcceptedFormat, reencodePhoto, UnreadablePhoto } from '@/server/enquiries/photo-processing';
import { incomingDirOf, photosRoot, type PhotoToStore } from '@/server/enquiries/photo-store';
import { photoStorageState } from '@/server/enquiries/photo-storage';
import { storeEnquiry, type NewEnquiry, type PhotosDroppedReason, type StoreResult } from '@/server/enquiries/store';
import { failure, mediaTypeOf, readJsonBody, type HandlerResult } from '@/server/http';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

export const MAX_CONTACT_BYTES = 32 * 1024;

/**
 * Refused submissions (not JSON, too large, malformed, invalid) per client: generous, so a person
 * correcting typos is never blocked, but a script cannot make the server parse and validate without
 * limit. Accepted submissions and reCAPTCHA assessments draw on the separate CONTACT_RATE_LIMIT.
 */
export const REFUSED_SUBMISSION_LIMIT = { limit: 30, windowMs: 10 * 60_000 } as const;

export { CONTACT_RESPONSES };

export type ContactHandlerDeps = {
  config?: EnquiryConfig;
  limiter?: RateLimiter;
  refusedLimiter?: RateLimiter;
  db?: () => Promise<Client>;
  verify?: typeof verifyRecaptcha;
  wake?: () => void;
  now?: () => number;
  /** Where photos are stored (default ENQUIRY_PHOTOS_DIR). */
  photosRoot?: string;
  maxConcurrentUploads?: number;
  /** The minimum transfer rate of an upload (default MIN_UPLOAD_BYTES_PER_SECOND over RATE_WINDOW_MS). */
  uploadRate?: { minBytesPerSecond: number; windowMs: number };
};

/** Multipart bodies one client (an address, or an IPv6 /64) may send at once. */
export const MAX_UPLOADS_PER_CLIENT = 1;

type Verdict = Pick<NewEnquiry, 'disposition' | 'verification' | 'score' | 'detail'>;

/**
 * POST /api/contact: validates, rate-limits, verifies with reCAPTCHA Enterprise when configured, and
 * commits the enquiry with its notification job before answering 201. Anything a visitor can send gets
 * a 2xx or a 4xx; only a database outage answers 503. Every cost is bounded before it is paid: the
 * budgets before the body is read, the upload slots (in all and per client) and the minimum transfer
 * rate while it is, each photo's declared pixels before it is decoded, and the photo storage's budget
 * before a photo is written.
 */
export function createContactHandler(deps: ContactHandlerDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const limiter = deps.limiter ?? createRateLimiter({ limit: config.rateLimit, windowMs: config.rateWindowMs, now: deps.now });
  const refusedLimiter = deps.refusedLimiter ?? createRateLimiter({ ...REFUSED_SUBMISSION_LIMIT, now: deps.now });
  const db = deps.db ?? getDb;
  const verify = deps.verify ?? verifyRecaptcha;
  const wake = deps.wake ?? wakeOutboxWorker;
  const now = deps.now ?? Date.now;
  const maxConcurrentUploads = deps.maxConcurrentUploads ?? MAX_CONCURRENT_UPLOADS;
  const root = () => deps.photosRoot ?? photosRoot();
  const storageLimits = { maxBytes: config.photosMaxBytes, minFreeBytes: config.photosMinFreeBytes };

  const tooMany = (retryAfterSeconds: number) => failure(429, CONTACT_RESPONSES.tooMany, {}, { 'Retry-After': String(retryAfterSeconds) });

  // Multipart bodies being received at once, in this process and per client: each may put 60 MB on disk.
  let uploadsInProgress = 0;
  const uploadsByClient = new Map<string, number>();

  /** Whether photos can be kept now; when the database cannot say, the store will answer for it. */
  async function photosCanBeKept(): Promise<boolean> {
    try {
      return (await photoStorageState(await db(), root(), storageLimits)).state === 'ok';
    } catch {
      return true;
    }
  }

  return async function handleContact(request: Request): Promise<HandlerResult> {
    const address = clientAddress(request.headers);
    const key = rateLimitKey(address);
    // Both budgets are checked before the body is read: an over-budget client costs no parsing.
    for (const budget of [limiter, refusedLimiter]) {
      const early = budget.peek(key);
      if (!early.allowed) return tooMany(early.retryAfterSeconds);
    }
    const refuse = (status: number, message: string, extra: Record<string, unknown> = {}) => {
      refusedLimiter.hit(key);
      return failure(status, message, extra);
    };
    const refusePhoto = (status: number, message: string) =>
      refuse(status, status === 413 ? message : CONTACT_RESPONSES.invalid, { errors: [{ path: PHOTO_FIELD, msg: message }] });

    if (mediaTypeOf(request) !== 'multipart/form-data') {
      const body = await readJsonBody(request, MAX_CONTACT_BYTES);
      if (!body.ok) {
        const message = { 415: CONTACT_RESPONSES.unsupportedType, 413: CONTACT_RESPONSES.tooLarge, 400: CONTACT_RESPONSES.malformed }[
          body.status
        ];
        return refuse(body.status, message);
      }
      const input = body.value;
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return refuse(400, CONTACT_RESPONSES.notObject);
      return accept(input, [], true);
    }

    // The same fields with photos, bounded before anything is read.
    if (uploadsInProgress >= maxConcurrentUploads) return failure(503, CONTACT_RESPONSES.photosBusy, {}, { 'Retry-After': '30' });
    if ((uploadsByClient.get(key) ?? 0) >= MAX_UPLOADS_PER_CLIENT)
      return failure(429, CONTACT_RESPONSES.uploadInProgress, {}, { 'Retry-After': '30' });
    uploadsInProgress += 1;
    uploadsByClient.set(key, (uploadsByClient.get(key) ?? 0) + 1);
    let upload: MultipartEnquiry | undefined;
    try {
      const keep = await photosCanBeKept();
      const read = await readMultipartEnquiry(request, {
        incomingDir: incomingDirOf(root()),
        keepFiles: keep,
        minBytesPerSecond: deps.uploadRate?.minBytesPerSecond,
        rateWindowMs: deps.uploadRate?.windowMs,
      });
      if (!read.ok) {
        const { refusal } = read;
        const name = refusal.file ?? '';
        switch (refusal.reason) {
          case 'photo-too-large':
            return refusePhoto(413, photoText.tooLarge(name));
          case 'too-many-photos':
            return refusePhoto(413, photoText.tooMany);
          case 'body-too-large':
            return refusePhoto(413, CONTACT_RESPONSES.bodyTooLarge);
          case 'text-too-large':
            return refuse(413, CONTACT_RESPONSES.tooLarge);
          case 'too-slow':
            return refuse(408, CONTACT_RESPONSES.uploadTooSlow, { errors: [{ path: PHOTO_FIELD, msg: CONTACT_RESPONSES.uploadTooSlow }] });
          case 'malformed':
            return refuse(400, CONTACT_RESPONSES.malformed);
        }
      }
      upload = read.value;
      return await accept(upload.fields, upload.files, keep);
    } finally {
      uploadsInProgress -= 1;
      const left = (uploadsByClient.get(key) ?? 1) - 1;
      if (left > 0) uploadsByClient.set(key, left);
      else uploadsByClient.delete(key);
      await upload?.cleanup();
    }

    async function accept(input: object, files: readonly UploadedFile[], storageHasRoom: boolean): Promise<HandlerResult> {
      const parsed = parseContact(input);
      if (!parsed.success) return refuse(422, CONTACT_RESPONSES.invalid, { errors: parsed.errors });
      const submission = parsed.data;

      // Judged by their first bytes and their headers, before any decoding: a PDF named .jpg, a GIF or
      // an image that declares more pixels than its budget is refused here, whatever the verdict.
      const photos = files.filter((file) => file.bytes > 0);
      const budgets: number[] = [];
      for (const file of photos) {
        const format = identifyPhoto(file.head);
        if (format === 'heic') return refusePhoto(422, photoText.heic(file.name));
        if (!isAcceptedFormat(format)) return refusePhoto(422, photoText.notAPhoto(file.name));
        if (!storageHasRoom) continue;
        const inspected = await inspectPhoto(file.path, format);
        if (!inspected.ok)
          return refusePhoto(
            422,
            inspected.refusal === 'too-many-pixels' ? photoText.tooManyPixels(file.name) : photoText.unreadable(file.name),
          );
        budgets.push(inspected.header.pixelBudget);
      }

      // Counted before the assessment, so a client whose tokens keep failing spends its budget like any
      // other and cannot make the site call Google (a paid API) or decode photos without limit.
      const decision = limiter.hit(key);
      if (!decision.allowed) return tooMany(decision.retryAfterSeconds);

      let verdict: Verdict;
      if (submission[HONEYPOT_FIELD]) {
        verdict = { disposition: 'spam', verification: 'honeypot' };
      } else if (config.recaptcha) {
        if (!submission.recaptchaToken) return failure(400, CONTACT_RESPONSES.missingToken);
        let verification: Verification;
        try {
          verification = await verify(submission.recaptchaToken, config.recaptcha);
        } catch (error) {
          verification = { kind: 'unreachable', detail: String(error) };
        }
        if (verification.kind === 'invalid') return failure(400, CONTACT_RESPONSES.invalidToken);
        verdict = verdictOf(verification);
      } else {
        verdict = { disposition: 'accepted', verification: 'not-configured' };
      }

      // Photos are decoded and kept for accepted enquiries only, and only while the storage has room.
      const dropReason: PhotosDroppedReason | null =
        verdict.disposition !== 'accepted' ? verdict.disposition : storageHasRoom ? null : 'storage-full';
      const processed: PhotoToStore[] = [];
      if (!dropReason) {
        for (const [index, file] of photos.entries()) {
          try {
            processed.push({ ...(await reencodePhoto(file.path, budgets[index])), originalName: file.name });
          } catch (error) {
            if (error instanceof UnreadablePhoto) return refusePhoto(422, photoText.unreadable(file.name));
            throw error;
          }
        }
      }
      // With reCAPTCHA on, only a verified sender is acknowledged: a bot cannot use the site to mail others.
      const acknowledge =
        config.acknowledge && verdict.disposition === 'accepted' && (!config.recaptcha || verdict.verification === 'verified')
          ? { perHour: config.acknowledgementsPerHour }
          : false;

      let stored: StoreResult;
      try {
        stored = await storeEnquiry(
          await db(),
          {
            ...verdict,
            values: contactValues(submission),
            claim: claimValues(submission),
            clientAddress: address,
            acknowledge,
            photos: processed,
            photosDropped: dropReason && photos.length > 0 ? { count: photos.length, reason: dropReason } : undefined,
          },
          now(),
          { photosRoot: deps.photosRoot },
        );
      } catch (error) {
        console.error('[contact] Could not store an enquiry:', error instanceof Error ? error.message : error);
        return failure(503, CONTACT_RESPONSES.unavailable, {}, { 'Retry-After': '60' });
      }
      if (verdict.disposition === 'accepted') wake();
      // Every stored enquiry has a reference, so a spam trap or a low score is not revealed by its absence;
      // nor by what is said of its photos: only a full storage is told, and only to an accepted one.
      return {
        status: 201,
        body: {
          success: true,
          message: CONTACT_RESPONSES.success,
          ...(stored.reference ? { reference: stored.reference } : {}),
          ...(dropReason === 'storage-full' && photos.length > 0 ? { photosNotKept: photos.length } : {}),
        },
      };
    }
  };
}

function verdictOf(verification: Exclude<Verification, { kind: 'invalid' }>): Verdict {
  switch (verification.kind) {
    case 'verified':
      return { disposition: 'accepted', verification: 'verified', score: verification.score };
    case 'low-score':
      return { disposition: 'suspect', verification: 'low-score', score: verification.score };
    case 'unreachable':
      return { disposition: 'accepted', verification: 'unverified', detail: verification.detail.slice(0, 500) };
  }
}

let shared: ReturnType<typeof createContactHandler> | undefined;

/** The route's handler, created on first use so configuration is read at run time, not build time. */
export function handleContactRequest(request: Request): Promise<HandlerResult> {
  shared ??= createContactHandler();
  return shared(request);
}
