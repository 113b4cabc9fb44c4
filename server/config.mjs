// The site's configuration: every environment variable the server side reads, validated once, typed
// (by JSDoc, from the schema). Read by the custom server (server.mjs), Next's server code, instrumentation
// and the CLIs; the browser's part is lib/public-env.mjs (no schema library in the browser), which this
// module validates too so a bad public value stops the server as well. Plain JavaScript so server.mjs
// runs it with no compile step. Why not @t3-oss/env-nextjs: docs/decisions/0007-one-configuration-module.md.
import { z } from 'zod';
import { readPublicEnv } from '../lib/public-env.mjs';
import { trimTrailingSlashes } from '../lib/trim-characters.mjs';
import { parseTrustProxy } from './proxy-client-address.mjs';

const blankToUndefined = (/** @type {unknown} */ value) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
/**
 * @template {z.ZodType} T
 * @param {T} schema
 */
const optional = (schema) => z.preprocess(blankToUndefined, schema.optional());
const emailAddress = z
  .string()
  .trim()
  .regex(/^[^\s@<>,]+@[^\s@<>,]+$/, 'must be one e-mail address');

const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['1', 'true', 'on', 'yes', '0', 'false', 'off', 'no'], { error: 'must be on or off (true/false, 1/0)' }))
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value));

const schema = z.object({
  SITE_URL: optional(z.url({ protocol: /^https?$/ })),
  PORT: optional(z.coerce.number().int().min(1).max(65535)),
  HOSTNAME: optional(z.string().trim().min(1)),
  NEXT_DIST_DIR: optional(z.string().trim().min(1)),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      try {
        return parseTrustProxy(value);
      } catch {
        context.addIssue({ code: 'custom', message: 'must be the number of reverse proxies in front of the server, 0 to 10' });
        return z.NEVER;
      }
    }),
  DATABASE_URL: optional(z.string().trim().min(1)),
  DATABASE_AUTH_TOKEN: optional(z.string().trim()),
  // Folder of the built-in gallery's added items (manifest.json + media/), managed by `npm run gallery`.
  GALLERY_DIR: optional(z.string().trim().min(1)),
  GALLERY_REFRESH_SECONDS: optional(z.coerce.number().int().min(0).max(3600)),
  CONTACT_RATE_LIMIT: optional(z.coerce.number().int().min(1).max(1_000_000)),
  CONTACT_RATE_WINDOW: optional(z.coerce.number().int().min(1).max(86_400)),
  RECAPTCHA_PROJECT_ID: optional(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9-]+$/i, 'must be a Google Cloud project id'),
  ),
  RECAPTCHA_API_KEY: optional(z.string().trim().min(1)),
  RECAPTCHA_MIN_SCORE: optional(z.coerce.number().min(0).max(1)),
  RECAPTCHA_ASSESSMENT_URL: optional(z.url({ protocol: /^https?$/ })),
  RECAPTCHA_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(60_000)),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
  ENQUIRY_TO: optional(emailAddress),
  ENQUIRY_FROM: optional(emailAddress),
  ENQUIRY_OUTBOX_DIR: optional(z.string().trim().min(1)),
  ENQUIRY_POLL_SECONDS: optional(z.coerce.number().min(0.05).max(3600)),
  ENQUIRY_ACKNOWLEDGE: optional(onOff),
  ENQUIRY_PHOTOS_DIR: optional(z.string().trim().min(1)),
  ENQUIRY_ACKNOWLEDGE_PER_HOUR: optional(z.coerce.number().int().min(0).max(10_000)),
  ENQUIRY_ACKNOWLEDGE_PER_CLIENT_PER_HOUR: optional(z.coerce.number().int().min(0).max(10_000)),
  ENQUIRY_PHOTOS_MAX_MB: optional(z.coerce.number().int().min(0).max(10_000_000)),
  ENQUIRY_PHOTOS_MIN_FREE_MB: optional(z.coerce.number().int().min(0).max(10_000_000)),
  SMTP_MAX_MESSAGE_MB: optional(z.coerce.number().min(0.1).max(1000)),
  ENQUIRY_DIGEST: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['weekly', 'daily', 'off'], { error: 'must be weekly, daily or off' })),
  ),
  ENQUIRY_DIGEST_TO: optional(emailAddress),
});

/** Acknowledgements one client (an address, an IPv6 /64) may be sent in an hour: its share of the hourly budget. */
export const DEFAULT_ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR = 2;
export const DEFAULT_ASSESSMENT_URL = 'https://recaptchaenterprise.googleapis.com/v1/projects/{projectId}/assessments';

/**
 * Reads and checks the configuration from `env`; a bad value throws one error naming every bad
 * variable ("Invalid environment configuration:\n  NAME: problem").
 * @param {Record<string, string | undefined>} [env]
 */
export function loadConfig(env = process.env) {
  /** @type {string[]} */
  const problems = [];
  /** @type {import('../lib/public-env.mjs').PublicEnv | undefined} */
  let publicPart;
  try {
    publicPart = readPublicEnv(env);
  } catch (error) {
    problems.push(String(error instanceof Error ? error.message : error).replace(/^Invalid environment configuration:\n/, ''));
  }
  const parsed = schema.safeParse(env);
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`));
  if (problems.length > 0 || !parsed.success || !publicPart) throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`);
  const e = parsed.data;
  return {
    siteUrl: trimTrailingSlashes(e.SITE_URL ?? 'http://localhost:3000'),
    port: e.PORT ?? 3000,
    hostname: e.HOSTNAME ?? '0.0.0.0',
    distDir: e.NEXT_DIST_DIR ?? '.next',
    trustedProxies: e.TRUST_PROXY,
    database: { url: e.DATABASE_URL ?? 'file:data/site.db', authToken: e.DATABASE_AUTH_TOKEN || undefined },
    galleryDir: e.GALLERY_DIR ?? 'data/gallery',
    galleryRefreshSeconds: e.GALLERY_REFRESH_SECONDS ?? 60,
    public: publicPart,
    enquiries: {
      rateLimit: e.CONTACT_RATE_LIMIT ?? 5,
      rateWindowMs: (e.CONTACT_RATE_WINDOW ?? 600) * 1000,
      recaptcha:
        e.RECAPTCHA_PROJECT_ID && e.RECAPTCHA_API_KEY
          ? {
              projectId: e.RECAPTCHA_PROJECT_ID,
              apiKey: e.RECAPTCHA_API_KEY,
              siteKey: publicPart.NEXT_PUBLIC_RECAPTCHA_SITE_KEY,
              minScore: e.RECAPTCHA_MIN_SCORE ?? 0.5,
              assessmentUrl: e.RECAPTCHA_ASSESSMENT_URL ?? DEFAULT_ASSESSMENT_URL,
              timeoutMs: e.RECAPTCHA_TIMEOUT_MS ?? 3000,
            }
          : null,
      smtpUrl: e.SMTP_URL ?? null,
      to: e.ENQUIRY_TO ?? null,
      from: e.ENQUIRY_FROM ?? null,
      outboxDir: e.ENQUIRY_OUTBOX_DIR ?? 'data/outbox',
      pollMs: Math.round((e.ENQUIRY_POLL_SECONDS ?? 5) * 1000),
      acknowledge: e.ENQUIRY_ACKNOWLEDGE ?? true,
      photosDir: e.ENQUIRY_PHOTOS_DIR ?? 'data/enquiry-photos',
      acknowledgementsPerHour: e.ENQUIRY_ACKNOWLEDGE_PER_HOUR ?? 10,
      acknowledgementsPerClientPerHour: e.ENQUIRY_ACKNOWLEDGE_PER_CLIENT_PER_HOUR ?? DEFAULT_ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR,
      photosMaxBytes: (e.ENQUIRY_PHOTOS_MAX_MB ?? 5000) * 1_000_000,
      photosMinFreeBytes: (e.ENQUIRY_PHOTOS_MIN_FREE_MB ?? 1000) * 1_000_000,
      maxMessageBytes: Math.round((e.SMTP_MAX_MESSAGE_MB ?? 10) * 1_000_000),
      // The digest to the company (server/enquiries/digest-schedule.ts): weekly on Monday 08:00 London time.
      digest: e.ENQUIRY_DIGEST ?? 'weekly',
      digestTo: e.ENQUIRY_DIGEST_TO ?? null,
    },
  };
}

/** @typedef {ReturnType<typeof loadConfig>} Config */
/** @typedef {Config['enquiries']} EnquirySettings */
/** @typedef {NonNullable<EnquirySettings['recaptcha']>} RecaptchaConfig */

/** @type {Config | undefined} */
let current;

/**
 * The process's configuration, read on first use (so tests and CLIs can set the environment first).
 * @returns {Config}
 */
export function config() {
  current ??= loadConfig();
  return current;
}
