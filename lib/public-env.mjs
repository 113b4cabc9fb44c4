// Browser-visible configuration. Next inlines `process.env.NEXT_PUBLIC_*` at build time, so each
// variable is read by its literal name below. Checked by hand rather than with zod so no validation
// library ships to the browser; server/config.mjs runs the same check, so a bad value stops the
// server at start-up as well as the build. Plain JavaScript so server/config.mjs can use it.
import { trimTrailingSlashes } from './trim-characters.mjs';

/**
 * @param {string} name
 * @param {string | undefined} raw
 */
function baseUrl(name, raw) {
  const value = (raw ?? '').trim();
  if (value !== '' && !/^https?:\/\/[^\s/]+(?:\/.*)?$/.test(value)) {
    throw new Error(`Invalid environment configuration:\n  ${name}: must be empty or an http(s) URL`);
  }
  return trimTrailingSlashes(value);
}

/** @typedef {ReturnType<typeof readPublicEnv>} PublicEnv */

/**
 * The public settings from any environment object (the server's check; the tests).
 * @param {Record<string, string | undefined>} env
 */
export function readPublicEnv(env) {
  return {
    NEXT_PUBLIC_API_URL: baseUrl('NEXT_PUBLIC_API_URL', env.NEXT_PUBLIC_API_URL),
    NEXT_PUBLIC_CRM_URL: baseUrl('NEXT_PUBLIC_CRM_URL', env.NEXT_PUBLIC_CRM_URL),
    NEXT_PUBLIC_RECAPTCHA_SITE_KEY: (env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY ?? '').trim(),
  };
}

/** This build's public settings, as Next inlined them. */
export const publicEnv = readPublicEnv({
  NEXT_PUBLIC_API_URL: process.env.NEXT_PUBLIC_API_URL,
  NEXT_PUBLIC_CRM_URL: process.env.NEXT_PUBLIC_CRM_URL,
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: process.env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY,
});
