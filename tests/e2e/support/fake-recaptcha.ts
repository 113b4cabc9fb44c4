import type { Page } from '@playwright/test';
import { recaptchaTestToken } from '../../support/recaptcha-tokens';

// Google's reCAPTCHA Enterprise script, answered by a local fake that records what it was asked for.
// The request still goes to Google's URL, so the page's Content-Security-Policy is what decides whether
// the script may load.
export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/enterprise.js**';

/**
 * The token the fake script answers its nth execute() with (1-based): shaped like a real one, and
 * read as 'valid' by the assessment fake of the production-configuration build.
 */
export const fakeToken = (n: number) => recaptchaTestToken('valid', `standin${n}`);
const TOKEN_PREFIX = fakeToken(0).slice(0, fakeToken(0).indexOf('standin0'));
const TOKEN_LENGTH = fakeToken(0).length;

export const FAKE_RECAPTCHA = `
  window.__recaptcha = { executed: [] };
  window.grecaptcha = { enterprise: {
    ready: function (callback) { setTimeout(callback, 0); },
    execute: function (siteKey, options) {
      window.__recaptcha.executed.push({ siteKey: siteKey, action: options.action });
      return Promise.resolve(('${TOKEN_PREFIX}standin' + window.__recaptcha.executed.length).padEnd(${TOKEN_LENGTH}, 'x'));
    }
  } };`;

export type RecaptchaScripts = { requested: string[] };

/** Routes Google's script to the fake ('fake') or refuses the connection ('unreachable'). */
export async function routeRecaptcha(page: Page, mode: 'fake' | 'unreachable' = 'fake'): Promise<RecaptchaScripts> {
  const scripts: RecaptchaScripts = { requested: [] };
  await page.route(RECAPTCHA_SCRIPT, async (route) => {
    scripts.requested.push(route.request().url());
    if (mode === 'unreachable') return route.abort('connectionrefused');
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_RECAPTCHA });
  });
  return scripts;
}
