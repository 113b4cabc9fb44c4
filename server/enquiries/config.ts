import 'server-only';
import { z } from 'zod';
import { business } from '@/content/business';

export type RecaptchaConfig = {
  projectId: string;
  apiKey: string;
  siteKey: string;
  minScore: number;
  assessmentUrl: string;
  timeoutMs: number;
};

export type EnquiryConfig = {
  rateLimit: number;
  rateWindowMs: number;
  /** Null when RECAPTCHA_PROJECT_ID or RECAPTCHA_API_KEY is unset: submissions are not verified. */
  recaptcha: RecaptchaConfig | null;
  smtpUrl: string | null;
  to: string;
  from: string;
  outboxDir: string;
  pollMs: number;
};

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const envSchema = z.object({
  CONTACT_RATE_LIMIT: optional(z.coerce.number().int().min(1).max(1_000_000)),
  CONTACT_RATE_WINDOW: optional(z.coerce.number().int().min(1).max(86_400)),
  RECAPTCHA_PROJECT_ID: optional(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9-]+$/i, 'must be a Google Cloud project id'),
  ),
  RECAPTCHA_API_KEY: optional(z.string().trim().min(1)),
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: optional(z.string().trim()),
  RECAPTCHA_MIN_SCORE: optional(z.coerce.number().min(0).max(1)),
  RECAPTCHA_ASSESSMENT_URL: optional(z.url({ protocol: /^https?$/ })),
  RECAPTCHA_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(60_000)),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
  ENQUIRY_TO: optional(
    z
      .string()
      .trim()
      .regex(/^[^\s@<>,]+@[^\s@<>,]+$/, 'must be one e-mail address'),
  ),
  ENQUIRY_FROM: optional(
    z
      .string()
      .trim()
      .regex(/^[^\s@<>,]+@[^\s@<>,]+$/, 'must be one e-mail address'),
  ),
  ENQUIRY_OUTBOX_DIR: optional(z.string().trim().min(1)),
  ENQUIRY_POLL_SECONDS: optional(z.coerce.number().min(0.05).max(3600)),
});

export const DEFAULT_ASSESSMENT_URL = 'https://recaptchaenterprise.googleapis.com/v1/projects/{projectId}/assessments';

/** Reads the enquiry settings from the environment; a bad value throws an error naming the variable. */
export function loadEnquiryConfig(env: Record<string, string | undefined> = process.env): EnquiryConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Invalid enquiry configuration:\n${problems}`);
  }
  const e = parsed.data;
  const recaptcha =
    e.RECAPTCHA_PROJECT_ID && e.RECAPTCHA_API_KEY
      ? {
          projectId: e.RECAPTCHA_PROJECT_ID,
          apiKey: e.RECAPTCHA_API_KEY,
          siteKey: e.NEXT_PUBLIC_RECAPTCHA_SITE_KEY ?? '',
          minScore: e.RECAPTCHA_MIN_SCORE ?? 0.5,
          assessmentUrl: e.RECAPTCHA_ASSESSMENT_URL ?? DEFAULT_ASSESSMENT_URL,
          timeoutMs: e.RECAPTCHA_TIMEOUT_MS ?? 3000,
        }
      : null;
  return {
    rateLimit: e.CONTACT_RATE_LIMIT ?? 5,
    rateWindowMs: (e.CONTACT_RATE_WINDOW ?? 600) * 1000,
    recaptcha,
    smtpUrl: e.SMTP_URL ?? null,
    to: e.ENQUIRY_TO ?? business.email,
    from: e.ENQUIRY_FROM ?? business.email,
    outboxDir: e.ENQUIRY_OUTBOX_DIR ?? 'data/outbox',
    pollMs: Math.round((e.ENQUIRY_POLL_SECONDS ?? 5) * 1000),
  };
}
