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
import { DECODABLE, identifyPhoto, reencodePhoto, UnreadablePhoto } from '@/server/enquiries/photo-processing';
import type { PhotoToStore } from '@/server/enquiries/photo-store';
import { storeEnquiry, type NewEnquiry } from '@/server/enquiries/store';
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
};

/**
 * POST /api/contact: validates, rate-limits, verifies with reCAPTCHA Enterprise when configured, and
 * commits the enquiry with its notification job before answering 201. Anything a visitor can send gets
 * a 2xx or a 4xx; only a database outage answers 503.
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

  const tooMany = (retryAfterSeconds: number) => failure(429, CONTACT_RESPONSES.tooMany, {}, { 'Retry-After': String(retryAfterSeconds) });

  // Multipart bodies being received at once in this process: each may hold up to 60 MB on disk.
  let uploadsInProgress = 0;

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
      return accept(input, []);
    }

    // Issue 13: the same fields with photos. Bounded before anything is read: uploads at once, then
    // the body's, each photo's and the photos' caps while it streams.
    if (uploadsInProgress >= maxConcurrentUploads) return failure(503, CONTACT_RESPONSES.photosBusy, {}, { 'Retry-After': '30' });
    uploadsInProgress += 1;
    let upload: MultipartEnquiry | undefined;
    try {
      const read = await readMultipartEnquiry(request);
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
          case 'malformed':
            return refuse(400, CONTACT_RESPONSES.malformed);
        }
      }
      upload = read.value;
      return await accept(upload.fields, upload.files);
    } finally {
      uploadsInProgress -= 1;
      await upload?.cleanup();
    }

    async function accept(input: object, files: readonly UploadedFile[]): Promise<HandlerResult> {
      const parsed = parseContact(input);
      if (!parsed.success) return refuse(422, CONTACT_RESPONSES.invalid, { errors: parsed.errors });
      const submission = parsed.data;

      // Identified by their first bytes, before any decoding: a PDF named .jpg is refused here.
      const photos = files.filter((file) => file.bytes > 0);
      for (const file of photos) {
        const format = identifyPhoto(file.head);
        if (format === 'heic') return refusePhoto(422, photoText.heic(file.name));
        if (format === null || !DECODABLE.includes(format)) return refusePhoto(422, photoText.notAPhoto(file.name));
      }

      // Counted before the assessment, so a client whose tokens keep failing spends its budget like any
      // other and cannot make the site call Google (a paid API) or decode photos without limit.
      const decision = limiter.hit(key);
      if (!decision.allowed) return tooMany(decision.retryAfterSeconds);

      let enquiry: Omit<NewEnquiry, 'values' | 'claim' | 'clientAddress' | 'acknowledge'>;
      if (submission[HONEYPOT_FIELD]) {
        enquiry = { disposition: 'spam', verification: 'honeypot' };
      } else if (config.recaptcha) {
        if (!submission.recaptchaToken) return failure(400, CONTACT_RESPONSES.missingToken);
        let verification: Verification;
        try {
          verification = await verify(submission.recaptchaToken, config.recaptcha);
        } catch (error) {
          verification = { kind: 'unreachable', detail: String(error) };
        }
        switch (verification.kind) {
          case 'invalid':
            return failure(400, CONTACT_RESPONSES.invalidToken);
          case 'verified':
            enquiry = { disposition: 'accepted', verification: 'verified', score: verification.score };
            break;
          case 'low-score':
            enquiry = { disposition: 'suspect', verification: 'low-score', score: verification.score };
            break;
          case 'unreachable':
            enquiry = { disposition: 'accepted', verification: 'unverified', detail: verification.detail.slice(0, 500) };
            break;
        }
      } else {
        enquiry = { disposition: 'accepted', verification: 'not-configured' };
      }

      // Decoded and written again without metadata; a spam trap's photos are not worth the work.
      const processed: PhotoToStore[] = [];
      if (enquiry.disposition !== 'spam') {
        for (const file of photos) {
          try {
            processed.push({ ...(await reencodePhoto(file.path)), originalName: file.name });
          } catch (error) {
            if (error instanceof UnreadablePhoto) return refusePhoto(422, photoText.unreadable(file.name));
            throw error;
          }
        }
      }

      let stored: { reference: string | null };
      try {
        const client = await db();
        stored = await storeEnquiry(
          client,
          {
            ...enquiry,
            values: contactValues(submission),
            claim: claimValues(submission),
            clientAddress: address,
            acknowledge: config.acknowledge,
            photos: processed,
          },
          now(),
          { photosRoot: deps.photosRoot },
        );
      } catch (error) {
        console.error('[contact] Could not store an enquiry:', error instanceof Error ? error.message : error);
        return failure(503, CONTACT_RESPONSES.unavailable, {}, { 'Retry-After': '60' });
      }
      if (enquiry.disposition === 'accepted') wake();
      // Every stored enquiry has a reference, so a spam trap or a low score is not revealed by its absence.
      return {
        status: 201,
        body: { success: true, message: CONTACT_RESPONSES.success, ...(stored.reference ? { reference: stored.reference } : {}) },
      };
    }
  };
}

let shared: ReturnType<typeof createContactHandler> | undefined;

/** The route's handler, created on first use so configuration is read at run time, not build time. */
export function handleContactRequest(request: Request): Promise<HandlerResult> {
  shared ??= createContactHandler();
  return shared(request);
}
