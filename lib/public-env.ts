/**
 * Browser-visible configuration. Next inlines `process.env.NEXT_PUBLIC_*` at build time,
 * so each variable must be read by its literal name here. Checked by hand rather than with zod so
 * no validation library ships to the browser; a bad value throws at build and at start-up.
 */
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';

function baseUrl(name: string, raw: string | undefined): string {
  const value = (raw ?? '').trim();
  if (value !== '' && !/^https?:\/\/[^\s/]+(?:\/.*)?$/.test(value)) {
    throw new Error(`Invalid environment configuration:\n  ${name}: must be empty or an http(s) URL`);
  }
  return trimTrailingSlashes(value);
}

export const publicEnv = {
  NEXT_PUBLIC_API_URL: baseUrl('NEXT_PUBLIC_API_URL', process.env.NEXT_PUBLIC_API_URL),
  NEXT_PUBLIC_CRM_URL: baseUrl('NEXT_PUBLIC_CRM_URL', process.env.NEXT_PUBLIC_CRM_URL),
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: (process.env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY ?? '').trim(),
} as const;

/** Base for the contact call; '' means the site's own origin. */
export const apiBaseUrl = publicEnv.NEXT_PUBLIC_API_URL;
/** Base for the CRM calls (gallery, error logs); '' means the site's own origin. */
export const crmBaseUrl = publicEnv.NEXT_PUBLIC_CRM_URL;
export const recaptchaSiteKey = publicEnv.NEXT_PUBLIC_RECAPTCHA_SITE_KEY;
