import { RECAPTCHA_ACTION } from '@/lib/contact-fields';
import { CONTACT_OUTCOME_MESSAGES } from '@/content/contact';

/** The part of Google's reCAPTCHA Enterprise browser API we use. */
type Grecaptcha = {
  enterprise: {
    ready(callback: () => void): void;
    execute(siteKey: string, options: { action: string }): Promise<string>;
  };
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const recaptchaScriptUrl = (siteKey: string) => `https://www.google.com/recaptcha/enterprise.js?render=${encodeURIComponent(siteKey)}`;

const LOAD_TIMEOUT_MS = 15_000;
let loading: Promise<Grecaptcha> | null = null;

/**
 * Adds Google's script once, on demand (when the visitor first engages the form, never on page load).
 * Rejects with 'Failed to load reCAPTCHA script' if it cannot load; the next call tries again.
 */
export function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  if (loading) return loading;
  loading = new Promise<Grecaptcha>((resolve, reject) => {
    const fail = () => {
      script.remove();
      loading = null;
      reject(new Error(CONTACT_OUTCOME_MESSAGES.recaptchaLoad));
    };
    const timer = window.setTimeout(fail, LOAD_TIMEOUT_MS);
    const script = document.createElement('script');
    script.src = recaptchaScriptUrl(siteKey);
    script.async = true;
    script.defer = true;
    script.addEventListener('load', () => {
      window.clearTimeout(timer);
      const api = window.grecaptcha;
      if (api?.enterprise) api.enterprise.ready(() => resolve(api));
      else fail();
    });
    script.addEventListener('error', () => {
      window.clearTimeout(timer);
      fail();
    });
    document.head.appendChild(script);
  });
  return loading;
}

/** A fresh token for action contact_form (tokens are single-use and live two minutes: ask at submit). */
export async function recaptchaToken(siteKey: string): Promise<string> {
  const api = await loadRecaptcha(siteKey);
  return api.enterprise.execute(siteKey, { action: RECAPTCHA_ACTION });
}
