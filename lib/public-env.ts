// The browser-visible settings. Next inlines `process.env.NEXT_PUBLIC_*` at build time only where it is
// written literally, so each is named here. Their check and defaults are the schema's in
// server/base/config.mjs, which the build (next.config.ts) and the server run: no schema library ships to the
// browser. Here each value is only tidied as the schema tidies it (spaces, trailing slashes).
import { trimTrailingSlashes } from '@/lib/trim-characters.mjs';

const tidy = (value: string | undefined) => trimTrailingSlashes((value ?? '').trim());

/** Base for the contact call; '' means the site's own origin. */
export const apiBaseUrl = tidy(process.env.NEXT_PUBLIC_API_URL);
/** Base for the CRM calls (gallery, error logs); '' means the site's own origin. */
export const crmBaseUrl = tidy(process.env.NEXT_PUBLIC_CRM_URL);
export const recaptchaSiteKey = (process.env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY ?? '').trim();
