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
  /** ENQUIRY_ACKNOWLEDGE_PER_HOUR: acknowledgements queued in any hour at most (default 10; 0: none). */
  acknowledgementsPerHour: number;
  /** ENQUIRY_PHOTOS_MAX_MB: the stored photos' total at most (default 5000 MB); past it photos are not kept. */
  photosMaxBytes: number;
  /** ENQUIRY_PHOTOS_MIN_FREE_MB: free space kept on the photos' disk (default 1000 MB); below it photos are not kept. */
  photosMinFreeBytes: number;
  /** SMTP_MAX_MESSAGE_MB: a notification's size at most, photos attached (default 10 MB); the rest are listed. */
  maxMessageBytes: number;
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
