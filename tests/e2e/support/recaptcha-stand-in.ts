import type { Page } from '@playwright/test';
import { recaptchaTestToken } from '../../support/recaptcha-tokens';

// Google's reCAPTCHA Enterprise script, answered by a local stand-in that records what it was asked for.
// The request still goes to Google's URL, so the page's Content-Security-Policy is what decides whether
// the script may load.
export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/enterprise.js**';

/**
 * The token the stand-in script answers its nth execute() with (1-based): shaped like a real one, and
 * read as 'valid' by the assessment stand-in of the production-configuration build.
 */
export const standInToken = (n: number) => recaptchaTestToken('valid', `standin${n}`);
const TOKEN_PREFIX = standInToken(0).slice(0, standInToken(0).indexOf('standin0'));
const TOKEN_LENGTH = standInToken(0).length;

export const STAND_IN_RECAPTCHA = `
  window.__recaptcha = { executed: [] };
  window.grecaptcha = { enterprise: {
    ready: function (callback) { setTimeout(callback, 0); },
    execute: function (siteKey, options) {
      window.__recaptcha.executed.push({ siteKey: siteKey, action: options.action });
      return Promise.resolve(('${TOKEN_PREFIX}standin' + window.__recaptcha.executed.length).padEnd(${TOKEN_LENGTH}, 'x'));
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
