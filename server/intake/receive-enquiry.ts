import 'server-only';
import type { Client } from '@libsql/client';
import { CONTACT_RESPONSES, photoText } from '@/content/contact';
import type { AnswerReason } from '@/lib/contact-answer.mjs';
import { HONEYPOT_FIELD, PHOTO_FIELD, isUrgent } from '@/lib/contact-fields';
import { parseContact, type ContactSubmission } from '@/lib/contact-schema';
import { REFUSED_SUBMISSION_LIMIT } from '@/lib/enquiry-rules.mjs';
import { getDb } from '@/server/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/enquiry-config';
import { outboxWritten } from '@/server/ledger/outbox';
import { identifyPhoto, inspectPhoto, isAcceptedFormat, reencodePhoto, UnreadablePhoto } from '@/server/intake/photo-processing';
import { incomingDirOf, photosRoot, type PhotoToStore } from '@/server/ledger/photo-store';
import { photoStorageState } from '@/server/ledger/photo-storage';
import { verifyRecaptcha, type Verification } from '@/server/intake/recaptcha';
import { SENT_WITHOUT_SCRIPT } from '@/server/ledger/sent-without-script';
import { storeEnquiry, type NewEnquiry, type PhotosDroppedReason, type StoreResult } from '@/server/ledger/enquiry-store';
import { rateLimitKey } from '@/server/proxy-client-address.mjs';
import { createRateLimiter, type RateLimiter } from '@/server/rate-limiter';

/** A photo as it arrived: its size, its first bytes, and where its bytes are (absent: it will not be kept). */
export type ReceivedPhoto = { name: string; bytes: number; head: Uint8Array; source?: string | Buffer };

/** An enquiry as its way in parsed it, once: the form's fields by name, the photos, who sent it and how. */
export type EnquirySubmission = {
  fields: object;
  photos: readonly ReceivedPhoto[];
  /** The client's address (server/client-address.ts). */
  client: string;
  /** The page's own form posted natively, before or without its script: stored unverified, never acknowledged. */
  sentWithoutScript: boolean;
};

export type FieldError = { path: string; msg: string };

/**
 * What became of a submission. `stored`: it has its reference (every stored enquiry does, spam too, so
 * the verdict is not revealed by its absence). `refused`: for what was sent, with the field errors.
 * `busy`: nothing wrong with it, try again after `retryAfterSeconds`.
 */
export type EnquiryResult =
  | { kind: 'stored'; reference?: string; urgent: boolean; photosNotKept: number }
  | { kind: 'refused'; reason: AnswerReason; status: number; message: string; errors?: FieldError[] }
  | { kind: 'busy'; reason: 'rate-limited' | 'unavailable'; status: 429 | 503; message: string; retryAfterSeconds: number };

/** A result that is not a stored enquiry: refused or busy. */
export type NotStored = Exclude<EnquiryResult, { kind: 'stored' }>;

/**
 * A refusal decided by one of the steps below or by a way in while it read the body. `counted`: it
 * draws on the client's budget of refused submissions (a reCAPTCHA refusal does not: the
 * accepted-submission budget was charged already).
 */
export class Refusal {
  constructor(
    readonly reason: AnswerReason,
    readonly status: number,
    readonly message: string,
    readonly errors?: FieldError[],
    readonly counted = true,
  ) {}
}

export const photoRefusal = (status: 413 | 422, message: string) =>
  new Refusal(status === 413 ? 'too-large' : 'invalid', status, status === 413 ? message : CONTACT_RESPONSES.invalid, [
    { path: PHOTO_FIELD, msg: message },
  ]);

/** Why a body could not be read as an enquiry, as each way in finds it (the limits of lib/enquiry-rules.mjs). */
export type ReadingRefusal = {
  reason: 'body-too-large' | 'photo-too-large' | 'too-many-photos' | 'text-too-large' | 'malformed';
  file?: string;
};

export function readingRefusal({ reason, file = '' }: ReadingRefusal): Refusal {
  switch (reason) {
    case 'photo-too-large':
      return photoRefusal(413, photoText.tooLarge(file));
    case 'too-many-photos':
      return photoRefusal(413, photoText.tooMany);
    case 'body-too-large':
      return photoRefusal(413, CONTACT_RESPONSES.bodyTooLarge);
    case 'text-too-large':
      return new Refusal('too-large', 413, CONTACT_RESPONSES.tooLarge);
    case 'malformed':
      return new Refusal('malformed', 400, CONTACT_RESPONSES.malformed);
  }
}

export type EnquiryReceiverDeps = {
  config?: EnquiryConfig;
  limiter?: RateLimiter;
  refusedLimiter?: RateLimiter;
  db?: () => Promise<Client>;
  verify?: typeof verifyRecaptcha;
  wake?: () => void;
  now?: () => number;
  /** Where photos are stored (default ENQUIRY_PHOTOS_DIR). */
  photosRoot?: string;
};

type Verdict = Pick<NewEnquiry, 'disposition' | 'verification' | 'score' | 'detail'>;
export type CheckedPhoto = { photo: ReceivedPhoto; pixelBudget: number | undefined };

/** The fields against the one contact schema. */
function parseEnquiry(fields: object): ContactSubmission | Refusal {
  const parsed = parseContact(fields);
  return parsed.success ? parsed.data : new Refusal('invalid', 422, CONTACT_RESPONSES.invalid, parsed.errors);
}

/**
 * Each photo judged by its first bytes and its header, before any decoding: a PDF named .jpg, a GIF or
 * an image that declares more pixels than its budget is refused here, whatever the verdict. Returns the
 * photos worth keeping with each one's pixel budget (none read when they cannot be kept).
 */
export async function checkPhotos(photos: readonly ReceivedPhoto[]): Promise<CheckedPhoto[] | Refusal> {
  const checked: CheckedPhoto[] = [];
  for (const photo of photos) {
    const format = identifyPhoto(photo.head);
    if (format === 'heic') return photoRefusal(422, photoText.heic(photo.name));
    if (!isAcceptedFormat(format)) return photoRefusal(422, photoText.notAPhoto(photo.name));
    if (photo.source === undefined) {
      checked.push({ photo, pixelBudget: undefined });
      continue;
    }
    const inspected = await inspectPhoto(photo.source, format);
    if (!inspected.ok)
      return photoRefusal(
        422,
        inspected.refusal === 'too-many-pixels' ? photoText.tooManyPixels(photo.name) : photoText.unreadable(photo.name),
      );
    checked.push({ photo, pixelBudget: inspected.header.pixelBudget });
  }
  return checked;
}

/** What the enquiry is: spam by the honeypot, or by reCAPTCHA's verdict when it is configured. */
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
  if (!submission.recaptchaToken) return new Refusal('captcha', 400, CONTACT_RESPONSES.missingToken, undefined, false);
  let verification: Verification;
  try {
    verification = await verify(submission.recaptchaToken, config.recaptcha);
  } catch (error) {
    verification = { kind: 'unreachable', detail: String(error) };
  }
  if (verification.kind === 'invalid') return new Refusal('captcha', 400, CONTACT_RESPONSES.invalidToken, undefined, false);
  return verdictOf(verification);
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

/** Photos re-encoded, their metadata gone (accepted enquiries only, while storage has room). */
export async function reencodePhotos(photos: readonly CheckedPhoto[]): Promise<PhotoToStore[] | Refusal> {
  const processed: PhotoToStore[] = [];
  for (const { photo, pixelBudget } of photos) {
    if (photo.source === undefined) continue;
    try {
      processed.push({ ...(await reencodePhoto(photo.source, pixelBudget)), originalName: photo.name });
    } catch (error) {
      if (error instanceof UnreadablePhoto) return photoRefusal(422, photoText.unreadable(photo.name));
      throw error;
    }
  }
  return processed;
}

/**
 * The one place an enquiry is received, whichever way it came in (the route for the scripted form, the
 * page's action for the form posted without script): the client's budgets, the fields against the one
 * schema, the photos checked, the verdict, the photos re-encoded, the enquiry stored with its
 * notification. Anything a visitor can send is stored or refused; only a database outage is `busy`.
 * Every cost is bounded before it is paid: the budgets before the body is read (`turnAway`), each
 * photo's declared pixels before it is decoded, the photo storage's budget before a photo is written.
 */
export function createEnquiryReceiver(deps: EnquiryReceiverDeps = {}) {
  const config = deps.config ?? loadEnquiryConfig();
  const limiter = deps.limiter ?? createRateLimiter({ limit: config.rateLimit, windowMs: config.rateWindowMs, now: deps.now });
  const refusedLimiter = deps.refusedLimiter ?? createRateLimiter({ ...REFUSED_SUBMISSION_LIMIT, now: deps.now });
  const db = deps.db ?? getDb;
  const verify = deps.verify ?? verifyRecaptcha;
  const wake = deps.wake ?? outboxWritten;
  const now = deps.now ?? Date.now;
  const storageLimits = { maxBytes: config.photosMaxBytes, minFreeBytes: config.photosMinFreeBytes };

  const tooMany = (retryAfterSeconds: number): NotStored => ({
    kind: 'busy',
    reason: 'rate-limited',
    status: 429,
    message: CONTACT_RESPONSES.tooMany,
    retryAfterSeconds,
  });

  function refuse(client: string, refusal: Refusal): NotStored {
    if (refusal.counted) refusedLimiter.hit(rateLimitKey(client));
    const { reason, status, message, errors } = refusal;
    return { kind: 'refused', reason, status, message, ...(errors ? { errors } : {}) };
  }

  async function receive({ fields, photos, client, sentWithoutScript }: EnquirySubmission): Promise<EnquiryResult> {
    const key = rateLimitKey(client);
    const submission = parseEnquiry(fields);
    if (submission instanceof Refusal) return refuse(client, submission);
    const checked = await checkPhotos(photos.filter((photo) => photo.bytes > 0));
    if (checked instanceof Refusal) return refuse(client, checked);

    // Charged before the assessment, so a client whose tokens keep failing spends its budget like any
    // other and cannot make the site call Google (a paid API) or decode photos without limit.
    const decision = limiter.hit(key);
    if (!decision.allowed) return tooMany(decision.retryAfterSeconds);

    const verdict = await classifyEnquiry(submission, config, verify, sentWithoutScript);
    if (verdict instanceof Refusal) return refuse(client, verdict);

    const storageHasRoom = checked.every(({ photo }) => photo.source !== undefined);
    const dropReason: PhotosDroppedReason | null =
      verdict.disposition !== 'accepted' ? verdict.disposition : storageHasRoom ? null : 'storage-full';
    const processed = dropReason ? [] : await reencodePhotos(checked);
    if (processed instanceof Refusal) return refuse(client, processed);
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
          ...submission,
          ...verdict,
          clientAddress: client,
          enquiryKey: submission.enquiryKey || null,
          acknowledge,
          tellCrm: config.tellCrm,
          photos: processed,
          photosDropped: dropReason && checked.length > 0 ? { count: checked.length, reason: dropReason } : undefined,
        },
        now(),
        { photosRoot: deps.photosRoot },
      );
    } catch (error) {
      console.error('[contact] Could not store an enquiry:', error instanceof Error ? error.message : error);
      return { kind: 'busy', reason: 'unavailable', status: 503, message: CONTACT_RESPONSES.unavailable, retryAfterSeconds: 60 };
    }
    if (verdict.disposition === 'accepted') wake();
    return {
      kind: 'stored',
      ...(stored.reference ? { reference: stored.reference } : {}),
      // From the visitor's own answers, whatever the verdict: the page offers the emergency line.
      urgent: isUrgent(submission),
      // Only a full storage is told, and only to an accepted enquiry: nothing reveals a verdict.
      photosNotKept: dropReason === 'storage-full' ? checked.length : 0,
    };
  }

  return {
    /** Before the body is read: a client over either budget costs no parsing. */
    turnAway(client: string): NotStored | undefined {
      for (const budget of [limiter, refusedLimiter]) {
        const early = budget.peek(rateLimitKey(client));
        if (!early.allowed) return tooMany(early.retryAfterSeconds);
      }
      return undefined;
    },
    /** A body its way in could not read as an enquiry: answered, and counted against the client. */
    refuse,
    /** Whether photos can be kept now (a way in reads them to nowhere when not); when the database cannot say, the store answers. */
    async photosCanBeKept(): Promise<boolean> {
      try {
        return (await photoStorageState(await db(), deps.photosRoot ?? photosRoot(), storageLimits)).state === 'ok';
      } catch {
        return true;
      }
    },
    /** Where a way in streams photos while they are checked (cleared at start-up). */
    incomingDir: () => incomingDirOf(deps.photosRoot ?? photosRoot()),
    receive,
    /** The client's budgets, for the other ways photos come in (added later to a claim) to draw on too. */
    budgets: { limiter, refusedLimiter },
  };
}

export type EnquiryReceiver = ReturnType<typeof createEnquiryReceiver>;

let shared: EnquiryReceiver | undefined;

/** The process's receiver (its budgets count every way in), created on first use so configuration is read at run time. */
export function enquiryReceiver(): EnquiryReceiver {
  shared ??= createEnquiryReceiver();
  return shared;
}
