import 'server-only';
import type { Client } from '@libsql/client';
import { CONTACT_RESPONSES, photoText } from '@/content/contact';
import { ENQUIRY_TEXT_MAX_BYTES, REFUSED_SUBMISSION_LIMIT } from '@/lib/enquiry-rules.mjs';
import type { AnswerReason } from '@/lib/contact-answer.mjs';
import { HONEYPOT_FIELD, PHOTO_FIELD, isUrgent } from '@/lib/contact-fields';
import { attributionValues, claimValues, contactValues, parseContact, type ContactSubmission } from '@/lib/contact-schema';
import { clientAddress } from '@/server/client-address';
import { rateLimitKey } from '@/server/proxy-client-address.mjs';
import { getDb } from '@/server/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/enquiries/config';
import { wakeOutboxWorker } from '@/server/enquiries/outbox';
import { verifyRecaptcha, type Verification } from '@/server/enquiries/recaptcha';
import {
  readMultipartEnquiry,
  type MultipartEnquiry,
  type MultipartRefusal,
  type UploadedFile,
} from '@/server/enquiries/multipart-enquiry';
import {
  createUploadSlots,
  sharedUploadSlots,
  UPLOAD_SLOTS,
  type UploadOutcome,
  type UploadSlots,
} from '@/server/enquiries/upload-slots.mjs';
import { identifyPhoto, inspectPhoto, isAcceptedFormat, reencodePhoto, UnreadablePhoto } from '@/server/enquiries/photo-processing';
import { incomingDirOf, photosRoot, type PhotoToStore } from '@/server/enquiries/photo-store';
import { photoStorageState } from '@/server/enquiries/photo-storage';
import { storeEnquiry, type NewEnquiry, type PhotosDroppedReason, type StoreResult } from '@/server/enquiries/store';
import { SENT_WITHOUT_SCRIPT } from '@/server/enquiries/sent-without-script';
import { failure, mediaTypeOf, readJsonBody, type HandlerResult } from '@/server/http';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

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
  /** The upload slots (default: this handler's own; the route's handler uses the process's shared ones). */
  uploadSlots?: UploadSlots;
  /** Own slots of this size, all at the minimum rate (tests). */
  maxConcurrentUploads?: number;
  /** The minimum transfer rate of an upload (default: the rate of the slot it holds, over RATE_WINDOW_MS). */
  uploadRate?: { minBytesPerSecond: number; windowMs: number };
};

type Verdict = Pick<NewEnquiry, 'disposition' | 'verification' | 'score' | 'detail'>;

/**
 * A refusal decided by one of the steps below. `counted`: it draws on the client's budget of refused
 * submissions (a reCAPTCHA refusal does not: the accepted-submission budget was charged already).
 */
class Refusal {
  constructor(
    readonly reason: AnswerReason,
    readonly status: number,
    readonly message: string,
    readonly extra: Record<string, unknown> = {},
    readonly counted = true,
  ) {}
}

const photoRefusal = (status: 413 | 422, message: string) =>
  new Refusal(status === 413 ? 'too-large' : 'invalid', status, status === 413 ? message : CONTACT_RESPONSES.invalid, {
    errors: [{ path: PHOTO_FIELD, msg: message }],
  });

/** The enquiry's fields and uploaded photo files, as received. */
type Received = { input: object; files: readonly UploadedFile[] };

/** Step 1a: a JSON body, at most ENQUIRY_TEXT_MAX_BYTES, that is an object. */
async function readJsonEnquiry(request: Request): Promise<Received | Refusal> {
  const body = await readJsonBody(request, ENQUIRY_TEXT_MAX_BYTES);
  if (!body.ok) {
    const message = { 415: CONTACT_RESPONSES.unsupportedType, 413: CONTACT_RESPONSES.tooLarge, 400: CONTACT_RESPONSES.malformed }[
      body.status
    ];
    const reason = ({ 415: 'unsupported-type', 413: 'too-large', 400: 'malformed' } as const)[body.status];
    return new Refusal(reason, body.status, message);
  }
  const input = body.value;
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return new Refusal('malformed', 400, CONTACT_RESPONSES.notObject);
  return { input, files: [] };
}

/** What each way a multipart upload can be refused while it streams in is answered with. */
function multipartRefusal({ reason, file = '' }: MultipartRefusal): Refusal {
  switch (reason) {
    case 'photo-too-large':
      return photoRefusal(413, photoText.tooLarge(file));
    case 'too-many-photos':
      return photoRefusal(413, photoText.tooMany);
    case 'body-too-large':
      return photoRefusal(413, CONTACT_RESPONSES.bodyTooLarge);
    case 'text-too-large':
      return new Refusal('too-large', 413, CONTACT_RESPONSES.tooLarge);
    case 'too-slow':
      return new Refusal('too-slow', 408, CONTACT_RESPONSES.uploadTooSlow, {
        errors: [{ path: PHOTO_FIELD, msg: CONTACT_RESPONSES.uploadTooSlow }],
      });
    case 'malformed':
      return new Refusal('malformed', 400, CONTACT_RESPONSES.malformed);
  }
}

/** Step 2: the fields against the one contact schema. */
function parseEnquiry(input: object): ContactSubmission | Refusal {
  const parsed = parseContact(input);
  return parsed.success ? parsed.data : new Refusal('invalid', 422, CONTACT_RESPONSES.invalid, { errors: parsed.errors });
}

/**
 * Step 3: each photo judged by its first bytes and its header, before any decoding: a PDF named .jpg, a
 * GIF or an image that declares more pixels than its budget is refused here, whatever the verdict.
 * Returns the photos worth keeping with each one's pixel budget (none read when they cannot be kept).
 */
async function checkPhotos(files: readonly UploadedFile[], storageHasRoom: boolean): Promise<CheckedPhoto[] | Refusal> {
  const checked: CheckedPhoto[] = [];
  for (const file of files.filter((candidate) => candidate.bytes > 0)) {
    const format = identifyPhoto(file.head);
    if (format === 'heic') return photoRefusal(422, photoText.heic(file.name));
    if (!isAcceptedFormat(format)) return photoRefusal(422, photoText.notAPhoto(file.name));
    if (!storageHasRoom) {
      checked.push({ file, pixelBudget: undefined });
      continue;
    }
    const inspected = await inspectPhoto(file.path, format);
    if (!inspected.ok)
      return photoRefusal(
        422,
        inspected.refusal === 'too-many-pixels' ? photoText.tooManyPixels(file.name) : photoText.unreadable(file.name),
      );
    checked.push({ file, pixelBudget: inspected.header.pixelBudget });
  }
  return checked;
}
type CheckedPhoto = { file: UploadedFile; pixelBudget: number | undefined };

/** Step 4: what the enquiry is — spam by the honeypot, or by reCAPTCHA's verdict when it is configured. */
async function classifyEnquiry(
  submission: ContactSubmission,
  config: EnquiryConfig,
  verify: typeof verifyRecaptcha,
  sentWithoutScript: boolean,
): Promise<Verdict | Refusal> {
  if (submission[HONEYPOT_FIELD]) return { disposition: 'spam', verification: 'honeypot' };
  // Bot protection runs in the page's JavaScript: a form posted before or without it cannot be checked.
  if (sentWithoutScript) return { disposition: 'accepted', verification: 'unverified', detail: SENT_WITHOUT_SCRIPT };
  if (!config.recaptcha) return { disposition: 'accepted', verification: 'not-configured' };
  if (!submission.recaptchaToken) return new Refusal('captcha', 400, CONTACT_RESPONSES.missingToken, {}, false);
  let verification: Verification;
  try {
    verification = await verify(submission.recaptchaToken, config.recaptcha);
  } catch (error) {
    verification = { kind: 'unreachable', detail: String(error) };
  }
  if (verification.kind === 'invalid') return new Refusal('captcha', 400, CONTACT_RESPONSES.invalidToken, {}, false);
  return verdictOf(verification);
}

/** Step 5: photos re-encoded (accepted enquiries only, while storage has room). */
async function reencodePhotos(photos: readonly CheckedPhoto[]): Promise<PhotoToStore[] | Refusal> {
  const processed: PhotoToStore[] = [];
  for (const { file, pixelBudget } of photos) {
    try {
      processed.push({ ...(await reencodePhoto(file.path, pixelBudget)), originalName: file.name });
    } catch (error) {
      if (error instanceof UnreadablePhoto) return photoRefusal(422, photoText.unreadable(file.name));
      throw error;
    }
  }
  return processed;
}

/**
 * POST /api/contact: receive, parse, check the photos, charge the budget, classify, re-encode and store
 * the enquiry with its notification job, then answer 201. Anything a visitor can send gets a 2xx or a
 * 4xx; only a database outage answers 503. Every cost is bounded before it is paid: the budgets before
 * the body is read, the upload slots (in all and per client) and the minimum transfer rate while it is,
 * each photo's declared pixels before it is decoded, and the photo storage's budget before a photo is
 * written.
 */
export function createContactHandler(deps: ContactHandlerDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const limiter = deps.limiter ?? createRateLimiter({ limit: config.rateLimit, windowMs: config.rateWindowMs, now: deps.now });
  const refusedLimiter = deps.refusedLimiter ?? createRateLimiter({ ...REFUSED_SUBMISSION_LIMIT, now: deps.now });
  const db = deps.db ?? getDb;
  const verify = deps.verify ?? verifyRecaptcha;
  const wake = deps.wake ?? wakeOutboxWorker;
  const now = deps.now ?? Date.now;
  const uploadSlots =
    deps.uploadSlots ??
    createUploadSlots({
      limits: deps.maxConcurrentUploads
        ? { ...UPLOAD_SLOTS, total: deps.maxConcurrentUploads, atMinimumRate: deps.maxConcurrentUploads }
        : UPLOAD_SLOTS,
      now: deps.now,
    });
  const root = () => deps.photosRoot ?? photosRoot();
  const storageLimits = { maxBytes: config.photosMaxBytes, minFreeBytes: config.photosMinFreeBytes };

  const tooMany = (retryAfterSeconds: number) =>
    failure(429, CONTACT_RESPONSES.tooMany, { reason: 'rate-limited' }, { 'Retry-After': String(retryAfterSeconds) });

  /** Whether photos can be kept now; when the database cannot say, the store will answer for it. */
  async function photosCanBeKept(): Promise<boolean> {
    try {
      return (await photoStorageState(await db(), root(), storageLimits)).state === 'ok';
    } catch {
      return true;
    }
  }

  /**
   * `sentWithoutScript`: the page's own form posted natively (server/enquiries/native-form.ts): stored
   * unverified, never acknowledged, under the same honeypot, budgets and slots as any other.
   */
  return async function handleContact(request: Request, { sentWithoutScript = false } = {}): Promise<HandlerResult> {
    const address = clientAddress(request.headers);
    const key = rateLimitKey(address);
    // Both budgets are checked before the body is read: an over-budget client costs no parsing.
    for (const budget of [limiter, refusedLimiter]) {
      const early = budget.peek(key);
      if (!early.allowed) return tooMany(early.retryAfterSeconds);
    }
    const answer = (refusal: Refusal): HandlerResult => {
      if (refusal.counted) refusedLimiter.hit(key);
      return failure(refusal.status, refusal.message, { reason: refusal.reason, ...refusal.extra });
    };

    if (mediaTypeOf(request) !== 'multipart/form-data') {
      const received = await readJsonEnquiry(request);
      return received instanceof Refusal ? answer(received) : accept(received, true);
    }

    // The same fields with photos, bounded before anything is read: an upload slot (in all, per client,
    // and not for a client whose uploads keep ending slow or abandoned: server/enquiries/upload-slots.mjs).
    // A form posted without script already holds one, taken by server.mjs while its body arrived.
    const granted = uploadSlots.acquire(key);
    if (!granted.ok) {
      // Busy: every slot taken, or this client's earlier upload still arriving; the form tries again by
      // itself after Retry-After. A client whose uploads keep ending slow or abandoned is rate-limited.
      const busy = granted.status === 503 || granted.reason === 'in-progress';
      const message =
        granted.status === 503
          ? CONTACT_RESPONSES.photosBusy
          : granted.reason === 'in-progress'
            ? CONTACT_RESPONSES.uploadInProgress
            : CONTACT_RESPONSES.tooMany;
      const reason: AnswerReason = busy ? 'busy' : 'rate-limited';
      return failure(granted.status, message, { reason }, { 'Retry-After': String(granted.retryAfterSeconds) });
    }
    let outcome: UploadOutcome = 'refused';
    let upload: MultipartEnquiry | undefined;
    try {
      const keep = await photosCanBeKept();
      const read = await readMultipartEnquiry(request, {
        incomingDir: incomingDirOf(root()),
        keepFiles: keep,
        minBytesPerSecond: deps.uploadRate?.minBytesPerSecond ?? granted.slot.minBytesPerSecond,
        rateWindowMs: deps.uploadRate?.windowMs,
      });
      if (!read.ok) {
        // A client that went away mid-body leaves its body broken and its request aborted.
        outcome = read.refusal.reason === 'too-slow' ? 'slow' : request.signal.aborted ? 'abandoned' : 'refused';
        return answer(multipartRefusal(read.refusal));
      }
      upload = read.value;
      outcome = 'completed';
      return await accept({ input: upload.fields, files: upload.files }, keep);
    } finally {
      granted.slot.release(outcome);
      await upload?.cleanup();
    }

    async function accept({ input, files }: Received, storageHasRoom: boolean): Promise<HandlerResult> {
      const submission = parseEnquiry(input);
      if (submission instanceof Refusal) return answer(submission);
      const photos = await checkPhotos(files, storageHasRoom);
      if (photos instanceof Refusal) return answer(photos);

      // Charged before the assessment, so a client whose tokens keep failing spends its budget like any
      // other and cannot make the site call Google (a paid API) or decode photos without limit.
      const decision = limiter.hit(key);
      if (!decision.allowed) return tooMany(decision.retryAfterSeconds);

      const verdict = await classifyEnquiry(submission, config, verify, sentWithoutScript);
      if (verdict instanceof Refusal) return answer(verdict);

      const dropReason: PhotosDroppedReason | null =
        verdict.disposition !== 'accepted' ? verdict.disposition : storageHasRoom ? null : 'storage-full';
      const processed = dropReason ? [] : await reencodePhotos(photos);
      if (processed instanceof Refusal) return answer(processed);
      // With reCAPTCHA on, only a verified sender is acknowledged (a bot cannot use the site to mail others),
      // so only verified enquiries spend the site's hourly budget; each client gets a share of it (decision 0011).
      const acknowledge =
        config.acknowledge &&
        verdict.disposition === 'accepted' &&
        !sentWithoutScript &&
        (!config.recaptcha || verdict.verification === 'verified')
          ? { perHour: config.acknowledgementsPerHour, perClient: config.acknowledgementsPerClientPerHour }
          : false;

      let stored: StoreResult;
      try {
        stored = await storeEnquiry(
          await db(),
          {
            ...verdict,
            values: contactValues(submission),
            claim: claimValues(submission),
            attribution: attributionValues(submission),
            clientAddress: address,
            enquiryKey: submission.enquiryKey || null,
            acknowledge,
            photos: processed,
            photosDropped: dropReason && photos.length > 0 ? { count: photos.length, reason: dropReason } : undefined,
          },
          now(),
          { photosRoot: deps.photosRoot },
        );
      } catch (error) {
        console.error('[contact] Could not store an enquiry:', error instanceof Error ? error.message : error);
        return failure(503, CONTACT_RESPONSES.unavailable, { reason: 'unavailable' }, { 'Retry-After': '60' });
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
          // From the visitor's own answers, whatever the verdict: the page offers the emergency line.
          ...(isUrgent(submission) ? { urgent: true } : {}),
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
export function handleContactRequest(request: Request, options?: { sentWithoutScript?: boolean }): Promise<HandlerResult> {
  shared ??= createContactHandler({ uploadSlots: sharedUploadSlots() });
  return shared(request, options);
}
