// The site's configuration: every environment variable, server and public, with its default and its check
// in one zod schema, read once per process (`config()`); the types come from the schema. Read by the custom
// server (server.mjs), next.config.ts, Next's server code, instrumentation and the CLIs. The browser reads
// its part through lib/public-env.ts, which names each NEXT_PUBLIC_* literally so Next inlines it; the
// values are checked here, when the site is built (next.config.ts) and when it starts. Plain JavaScript so
// server.mjs runs it with no compile step. Why not @t3-oss/env-nextjs: docs/decisions/0007-one-configuration-module.md.
import { z } from 'zod';
import { trimTrailingSlashes } from '../../lib/trim-characters.mjs';

const MAX_TRUSTED_PROXIES = 10;

/**
 * TRUST_PROXY is the number of reverse proxies in front of the server (0, the default, for none).
 * Throws an error naming the variable for anything else.
 * @param {string | undefined} raw
 * @returns {number}
 */
export function parseTrustProxy(raw) {
  const value = (raw ?? '').trim();
  if (value === '') return 0;
  if (!/^\d{1,2}$/.test(value) || Number(value) > MAX_TRUSTED_PROXIES) {
    throw new Error(
      `Invalid environment configuration:\n  TRUST_PROXY: must be the number of reverse proxies in front of the server, 0 to ${MAX_TRUSTED_PROXIES} (not "${value}")`,
    );
  }
  return Number(value);
}

/** Acknowledgements one client (an address, an IPv6 /64) may be sent in an hour: its share of the hourly budget. */
export const DEFAULT_ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR = 2;
const DEFAULT_ASSESSMENT_URL = 'https://recaptchaenterprise.googleapis.com/v1/projects/{projectId}/assessments';

/**
 * A Standard Webhooks secret: `whsec_` and base64 (checked by a round trip) of at least 16 bytes.
 * @param {string} value
 */
function isWebhookSecret(value) {
  const encoded = value.startsWith('whsec_') ? value.slice('whsec_'.length) : value;
  const key = Buffer.from(encoded, 'base64');
  return encoded !== '' && key.toString('base64') === encoded && key.length >= 16;
}

/**
 * A webhook receiver the site may post to: https, or http only to this machine (a fake, or a CRM
 * behind a local proxy); never with credentials in the URL (they would be logged with it).
 * @param {string} value
 */
function isSafeWebhookUrl(value) {
  const url = new URL(value);
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

const blankToUndefined = (/** @type {unknown} */ value) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
/**
 * A variable: unset and blank alike take the schema's `.default()` (or stay undefined with `.optional()`).
 * @template {z.ZodType} T
 * @param {T} schema
 */
const setting = (schema) => z.preprocess(blankToUndefined, schema);
const text = () => z.string().trim().min(1);
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
const publicBaseUrl = setting(
  z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/]+(?:\/.*)?$/, 'must be empty or an http(s) URL')
    .transform(trimTrailingSlashes)
    .default(''),
);

/** The browser's settings ('' when unset): Next inlines each into the bundle, where lib/public-env.ts reads it. */
const publicShape = {
  NEXT_PUBLIC_API_URL: publicBaseUrl,
  NEXT_PUBLIC_CRM_URL: publicBaseUrl,
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: setting(z.string().trim().default('')),
};

/** The settings a production build fixes (server/base/build-settings.mjs): the pages are prerendered with them. */
const buildTimeShape = {
  SITE_URL: setting(
    z
      .url({ protocol: /^https?$/ })
      .transform(trimTrailingSlashes)
      .default('http://localhost:3000'),
  ),
  ...publicShape,
  // `1`: the test build, whose `.e2e.*` files are routes and pages (next.config.ts, docs/testing.md).
  NEXT_PUBLIC_E2E_FAULTS: setting(z.string().trim().optional()),
  GALLERY_REFRESH_SECONDS: setting(z.coerce.number().int().min(0).max(3600).default(60)),
};

const schema = z.object({
  ...buildTimeShape,
  PORT: setting(z.coerce.number().int().min(1).max(65535).default(3000)),
  HOSTNAME: setting(text().default('0.0.0.0')),
  // Where `next build` writes the build and the server reads it.
  NEXT_DIST_DIR: setting(text().default('.next')),
  // `off`: `next build` leaves the type check to whoever asked for the build (the test command checks the
  // whole program once, in its production-configuration build; its other builds skip it).
  NEXT_BUILD_TYPECHECK: setting(z.enum(['on', 'off']).default('on')),
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
  DATABASE_URL: setting(text().default('file:data/site.db')),
  DATABASE_AUTH_TOKEN: setting(z.string().trim().optional()),
  // Folder of the built-in gallery's added items (manifest.json + media/), managed by `npm run gallery`.
  GALLERY_DIR: setting(text().default('data/gallery')),
  CONTACT_RATE_LIMIT: setting(z.coerce.number().int().min(1).max(1_000_000).default(5)),
  CONTACT_RATE_WINDOW: setting(z.coerce.number().int().min(1).max(86_400).default(600)),
  RECAPTCHA_PROJECT_ID: setting(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9-]+$/i, 'must be a Google Cloud project id')
      .optional(),
  ),
  RECAPTCHA_API_KEY: setting(text().optional()),
  RECAPTCHA_MIN_SCORE: setting(z.coerce.number().min(0).max(1).default(0.5)),
  RECAPTCHA_ASSESSMENT_URL: setting(z.url({ protocol: /^https?$/ }).default(DEFAULT_ASSESSMENT_URL)),
  RECAPTCHA_TIMEOUT_MS: setting(z.coerce.number().int().min(100).max(60_000).default(3000)),
  SMTP_URL: setting(
    z
      .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
      .nullable()
      .default(null),
  ),
  // The company's own address (content/business.ts) when null: server/intake/enquiry-settings.ts.
  ENQUIRY_TO: setting(emailAddress.nullable().default(null)),
  ENQUIRY_FROM: setting(emailAddress.nullable().default(null)),
  ENQUIRY_OUTBOX_DIR: setting(text().default('data/outbox')),
  ENQUIRY_POLL_SECONDS: setting(z.coerce.number().min(0.05).max(3600).default(5)),
  ENQUIRY_ACKNOWLEDGE: setting(onOff.default(true)),
  ENQUIRY_PHOTOS_DIR: setting(text().default('data/enquiry-photos')),
  ENQUIRY_ACKNOWLEDGE_PER_HOUR: setting(z.coerce.number().int().min(0).max(10_000).default(10)),
  ENQUIRY_ACKNOWLEDGE_PER_CLIENT_PER_HOUR: setting(
    z.coerce.number().int().min(0).max(10_000).default(DEFAULT_ACKNOWLEDGEMENTS_PER_CLIENT_PER_HOUR),
  ),
  ENQUIRY_PHOTOS_MAX_MB: setting(z.coerce.number().int().min(0).max(10_000_000).default(5000)),
  ENQUIRY_PHOTOS_MIN_FREE_MB: setting(z.coerce.number().int().min(0).max(10_000_000).default(1000)),
  SMTP_MAX_MESSAGE_MB: setting(z.coerce.number().min(0.1).max(1000).default(10)),
  // The digest to the company (server/reports/digest/sections/schedule.ts): weekly on Monday 08:00 London time.
  ENQUIRY_DIGEST: setting(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['weekly', 'daily', 'off'], { error: 'must be weekly, daily or off' }))
      .default('weekly'),
  ),
  ENQUIRY_DIGEST_TO: setting(emailAddress.nullable().default(null)),
  // The secret the CRM signs its claim events with (Standard Webhooks): POST /api/crm/events is off without it.
  CRM_EVENTS_SECRET: setting(
    z.string().trim().refine(isWebhookSecret, 'must be whsec_ followed by base64 of at least 16 bytes').nullable().default(null),
  ),
  // The company's CRM told of each enquiry by signed webhooks (server/crm/webhooks.ts): both or neither.
  CRM_WEBHOOK_URL: setting(
    z
      .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
      .refine(isSafeWebhookUrl, 'must be https:// (http:// only to this machine), without credentials')
      .nullable()
      .default(null),
  ),
  CRM_WEBHOOK_SECRET: setting(
    z.string().trim().refine(isWebhookSecret, 'must be whsec_ followed by base64 of at least 16 bytes').nullable().default(null),
  ),
});

/** Every variable the site reads, in the schema's order (docs/configuration.md and .env.example list each). */
export const CONFIG_VARIABLES = Object.freeze(Object.keys(schema.shape));
/** The variables a production build fixes: SITE_URL, every NEXT_PUBLIC_* and GALLERY_REFRESH_SECONDS. */
export const BUILD_TIME_VARIABLES = Object.freeze(Object.keys(buildTimeShape));
const PUBLIC_VARIABLES = /** @type {(keyof typeof publicShape)[]} */ (Object.keys(publicShape));

/** @typedef {z.output<typeof schema>} Environment The variables, checked, with their defaults. */
/** @typedef {z.output<z.ZodObject<typeof publicShape>>} PublicSettings The browser's settings, by variable name. */

/**
 * The configuration an environment describes; a bad value throws one error naming every bad variable
 * ("Invalid environment configuration:\n  NAME: problem"). Tests and tools with an environment of their
 * own call this; everything else calls `config()`.
 * @param {Record<string, string | undefined>} env
 */
export function parseConfig(env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.CRM_WEBHOOK_URL === null) !== (e.CRM_WEBHOOK_SECRET === null))
    throw new Error(
      `Invalid environment configuration:\n  ${e.CRM_WEBHOOK_URL === null ? 'CRM_WEBHOOK_URL' : 'CRM_WEBHOOK_SECRET'}: must be set with ${e.CRM_WEBHOOK_URL === null ? 'CRM_WEBHOOK_SECRET' : 'CRM_WEBHOOK_URL'}`,
    );
  return {
    siteUrl: e.SITE_URL,
    port: e.PORT,
    hostname: e.HOSTNAME,
    distDir: e.NEXT_DIST_DIR,
    buildTypecheck: e.NEXT_BUILD_TYPECHECK === 'on',
    trustedProxies: e.TRUST_PROXY,
    database: { url: e.DATABASE_URL, authToken: e.DATABASE_AUTH_TOKEN },
    galleryDir: e.GALLERY_DIR,
    crmEventsSecret: e.CRM_EVENTS_SECRET,
    /** Where the company's CRM is told of each enquiry, and the secret the events are signed with; null: off. */
    crmWebhook: e.CRM_WEBHOOK_URL && e.CRM_WEBHOOK_SECRET ? { url: e.CRM_WEBHOOK_URL, secret: e.CRM_WEBHOOK_SECRET } : null,
    galleryRefreshSeconds: e.GALLERY_REFRESH_SECONDS,
    /** The test build (NEXT_PUBLIC_E2E_FAULTS=1): next.config.ts makes its `.e2e.*` files routes and pages. */
    e2eBuild: e.NEXT_PUBLIC_E2E_FAULTS === '1',
    public: /** @type {PublicSettings} */ (Object.fromEntries(PUBLIC_VARIABLES.map((name) => [name, e[name]]))),
    enquiries: {
      rateLimit: e.CONTACT_RATE_LIMIT,
      rateWindowMs: e.CONTACT_RATE_WINDOW * 1000,
      recaptcha:
        e.RECAPTCHA_PROJECT_ID && e.RECAPTCHA_API_KEY
          ? {
              projectId: e.RECAPTCHA_PROJECT_ID,
              apiKey: e.RECAPTCHA_API_KEY,
              siteKey: e.NEXT_PUBLIC_RECAPTCHA_SITE_KEY,
              minScore: e.RECAPTCHA_MIN_SCORE,
              assessmentUrl: e.RECAPTCHA_ASSESSMENT_URL,
              timeoutMs: e.RECAPTCHA_TIMEOUT_MS,
            }
          : null,
      smtpUrl: e.SMTP_URL,
      to: e.ENQUIRY_TO,
      from: e.ENQUIRY_FROM,
      outboxDir: e.ENQUIRY_OUTBOX_DIR,
      pollMs: Math.round(e.ENQUIRY_POLL_SECONDS * 1000),
      acknowledge: e.ENQUIRY_ACKNOWLEDGE,
      /** Whether the company's CRM is told of each enquiry (CRM_WEBHOOK_URL): its events are queued with it. */
      tellCrm: e.CRM_WEBHOOK_URL !== null,
      photosDir: e.ENQUIRY_PHOTOS_DIR,
      acknowledgementsPerHour: e.ENQUIRY_ACKNOWLEDGE_PER_HOUR,
      acknowledgementsPerClientPerHour: e.ENQUIRY_ACKNOWLEDGE_PER_CLIENT_PER_HOUR,
      photosMaxBytes: e.ENQUIRY_PHOTOS_MAX_MB * 1_000_000,
      photosMinFreeBytes: e.ENQUIRY_PHOTOS_MIN_FREE_MB * 1_000_000,
      maxMessageBytes: Math.round(e.SMTP_MAX_MESSAGE_MB * 1_000_000),
      digest: e.ENQUIRY_DIGEST,
      digestTo: e.ENQUIRY_DIGEST_TO,
    },
  };
}

/** @typedef {ReturnType<typeof parseConfig>} Config */
/** @typedef {Config['enquiries']} EnquirySettings */
/** @typedef {NonNullable<EnquirySettings['recaptcha']>} RecaptchaConfig */

/** @type {Config | undefined} */
let current;

/**
 * The process's configuration, read from `process.env` on first use and kept (so a CLI or a test can set
 * the environment before its first call); throws like `parseConfig`.
 * @returns {Config}
 */
export function config() {
  current ??= parseConfig(process.env);
  return current;
}

/** Forgets the process's configuration, so the next `config()` reads `process.env` again: for tests that change it. */
export function resetConfig() {
  current = undefined;
}
