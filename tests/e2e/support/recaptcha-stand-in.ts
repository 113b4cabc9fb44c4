import type { Page } from '@playwright/test';

// Google's reCAPTCHA Enterprise script, answered by a local stand-in that records what it was asked for.
// The request still goes to Google's URL, so the page's Content-Security-Policy is what decides whether
// the script may load.
export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/enterprise.js**';

const STAND_IN_RECAPTCHA = `
  window.__recaptcha = { executed: [] };
  window.grecaptcha = { enterprise: {
    ready: function (callback) { setTimeout(callback, 0); },
    execute: function (siteKey, options) {
      window.__recaptcha.executed.push({ siteKey: siteKey, action: options.action });
      return Promise.resolve('stand-in-token-' + window.__recaptcha.executed.length);
    }
  } };`;

export type RecaptchaScripts = { requested: string[] };

/** Routes Google's script to the stand-in ('stand-in') or refuses the connection ('unreachable'). */
export async function routeRecaptcha(page: Page, mode: 'stand-in' | 'unreachable' = 'stand-in'): Promise<RecaptchaScripts> {
  const scripts: RecaptchaScripts = { requested: [] };
  await page.route(RECAPTCHA_SCRIPT, async (route) => {
    scripts.requested.push(route.request().url());
    if (mode === 'unreachable') return route.abort('connectionrefused');
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN_RECAPTCHA });
  });
  return scripts;
}
