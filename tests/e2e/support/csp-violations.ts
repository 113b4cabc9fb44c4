import type { ConsoleMessage, Page } from '@playwright/test';

/**
 * Collects every Content-Security-Policy violation a page reports, both ways a browser reports one:
 * the `securitypolicyviolation` event (recorded by an init script, which CSP does not govern) and the
 * console message Chromium prints ("Refused to … because it violates the following Content Security
 * Policy directive").
 */
export async function watchCspViolations(page: Page) {
  const consoleViolations: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    const text = message.text();
    if (/Content Security Policy|Content-Security-Policy/i.test(text)) consoleViolations.push(`${page.url()}: ${text}`);
  });
  await page.addInitScript(() => {
    const record = (event: SecurityPolicyViolationEvent) => {
      const store = ((window as unknown as { __cspViolations?: string[] }).__cspViolations ??= []);
      store.push(
        `${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample || 'no sample'})`,
      );
    };
    document.addEventListener('securitypolicyviolation', record);
  });
  return {
    /** Every violation so far, from the console and from the current document's events. */
    async all(): Promise<string[]> {
      const events = await page
        .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
        .catch(() => [] as string[]);
      return [...consoleViolations, ...events];
    },
  };
}
