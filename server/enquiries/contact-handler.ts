import 'server-only';
import type { Client } from '@libsql/client';
import { HONEYPOT_FIELD } from '@/lib/contact-rules';
import { CONTACT_RESPONSES } from '@/content/contact';
import { contactValues, parseContact } from '@/lib/contact-schema';
import { clientAddress, rateLimitKey } from '@/server/client-address';
import { getDb } from '@/server/db';
import { loadEnquiryConfig, type EnquiryConfig } from '@/server/enquiries/config';
import { wakeOutboxWorker } from '@/server/enquiries/outbox';
import { verifyRecaptcha, type Verification } from '@/server/enquiries/recaptcha';
import { storeEnquiry, type NewEnquiry } from '@/server/enquiries/store';
import { failure, readJsonBody, type HandlerResult } from '@/server/http';
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

  const tooMany = (retryAfterSeconds: number) => failure(429, CONTACT_RESPONSES.tooMany, {}, { 'Retry-After': String(retryAfterSeconds) });

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

    const body = await readJsonBody(request, MAX_CONTACT_BYTES);
    if (!body.ok) {
      const message = { 415: CONTACT_RESPONSES.unsupportedType, 413: CONTACT_RESPONSES.tooLarge, 400: CONTACT_RESPONSES.malformed }[
        body.status
      ];
      return refuse(body.status, message);
    }
    const input = body.value;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return refuse(400, CONTACT_RESPONSES.notObject);

    const parsed = parseContact(input);
    if (!parsed.success) return refuse(422, CONTACT_RESPONSES.invalid, { errors: parsed.errors });
    const submission = parsed.data;

    // Counted before the assessment, so a client whose tokens keep failing spends its budget like any
    // other and cannot make the site call Google (a paid API) without limit.
    const decision = limiter.hit(key);
    if (!decision.allowed) return tooMany(decision.retryAfterSeconds);

    let enquiry: Omit<NewEnquiry, 'values' | 'clientAddress'>;
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

    try {
      const client = await db();
      await storeEnquiry(client, { ...enquiry, values: contactValues(submission), clientAddress: address }, now());
    } catch (error) {
      console.error('[contact] Could not store an enquiry:', error instanceof Error ? error.message : error);
      return failure(503, CONTACT_RESPONSES.unavailable, {}, { 'Retry-After': '60' });
    }
    if (enquiry.disposition === 'accepted') wake();
    return { status: 201, body: { success: true, message: CONTACT_RESPONSES.success } };
  };
}

let shared: ReturnType<typeof createContactHandler> | undefined;

/** The route's handler, created on first use so configuration is read at run time, not build time. */
export function handleContactRequest(request: Request): Promise<HandlerResult> {
  shared ??= createContactHandler();
  return shared(request);
}
