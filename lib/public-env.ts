// The browser-visible settings (the one check is in lib/public-env.mjs, shared with server/config.mjs).
import { publicEnv } from '@/lib/public-env.mjs';

/** Base for the contact call; '' means the site's own origin. */
export const apiBaseUrl = publicEnv.NEXT_PUBLIC_API_URL;
/** Base for the CRM calls (gallery, error logs); '' means the site's own origin. */
export const crmBaseUrl = publicEnv.NEXT_PUBLIC_CRM_URL;
export const recaptchaSiteKey = publicEnv.NEXT_PUBLIC_RECAPTCHA_SITE_KEY;
