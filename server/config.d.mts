import type { PublicEnv } from '../lib/public-env.mjs';

export type RecaptchaConfig = {
  projectId: string;
  apiKey: string;
  siteKey: string;
  minScore: number;
  assessmentUrl: string;
  timeoutMs: number;
};

export type EnquirySettings = {
  rateLimit: number;
  rateWindowMs: number;
  /** Null when RECAPTCHA_PROJECT_ID or RECAPTCHA_API_KEY is unset: submissions are not verified. */
  recaptcha: RecaptchaConfig | null;
  smtpUrl: string | null;
  /** Null: the e-mail address in content/business.ts (server/enquiries/config.ts fills it in). */
  to: string | null;
  from: string | null;
  outboxDir: string;
  pollMs: number;
  /** ENQUIRY_ACKNOWLEDGE: whether accepted enquiries get an acknowledgement e-mail (default on). */
  acknowledge: boolean;
  /** ENQUIRY_PHOTOS_DIR: where enquiries' photos are kept, one folder per enquiry (never served). */
  photosDir: string;
};

export type Config = {
  siteUrl: string;
  port: number;
  hostname: string;
  distDir: string;
  trustedProxies: number;
  database: { url: string; authToken: string | undefined };
  galleryDir: string;
  public: PublicEnv;
  enquiries: EnquirySettings;
};

export const DEFAULT_ASSESSMENT_URL: string;
export function loadConfig(env?: Record<string, string | undefined>): Config;
export function config(): Config;
