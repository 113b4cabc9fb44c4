import { z } from 'zod';

/**
 * Browser-visible configuration. Next inlines `process.env.NEXT_PUBLIC_*` at build time,
 * so each variable must be read by its literal name here.
 */
const baseUrl = z
  .string()
  .trim()
  .refine((value) => value === '' || /^https?:\/\/[^\s/]+(\/.*)?$/.test(value), 'must be empty or an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

const publicEnvSchema = z.object({
  NEXT_PUBLIC_API_URL: baseUrl.default(''),
  NEXT_PUBLIC_CRM_URL: baseUrl.default(''),
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: z.string().trim().default(''),
});

export const publicEnv = publicEnvSchema.parse({
  NEXT_PUBLIC_API_URL: process.env.NEXT_PUBLIC_API_URL,
  NEXT_PUBLIC_CRM_URL: process.env.NEXT_PUBLIC_CRM_URL,
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: process.env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY,
});

/** Base for the contact call; '' means the site's own origin. */
export const apiBaseUrl = publicEnv.NEXT_PUBLIC_API_URL;
/** Base for the CRM calls (gallery, error logs); '' means the site's own origin. */
export const crmBaseUrl = publicEnv.NEXT_PUBLIC_CRM_URL;
export const recaptchaSiteKey = publicEnv.NEXT_PUBLIC_RECAPTCHA_SITE_KEY;
