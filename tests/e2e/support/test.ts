import { expect, test as base, type Page } from '@playwright/test';
import { HYDRATED } from './hydration';

export * from '@playwright/test';

// Prerendered pages load Next's chunks after their first paint, so the load event can come before
// React has hydrated the page: a dialog button does nothing yet and the enquiry form posts natively.
// Tests that act on the hydrated page wait for it here; the tests of the page before its JavaScript has
// run turn JavaScript off instead.

/** Waits until React has hydrated the page `page` shows. */
export async function hydrated(page: Page): Promise<void> {
  // Polled with page.evaluate, which the page's CSP allows; waitForFunction would need 'unsafe-eval'.
  // A page that moves on by itself (a claim link's, by meta refresh) is not hydrated: the next one is.
  await expect
    .poll(() => page.evaluate<boolean>(HYDRATED).catch(() => false), {
      message: `${page.url()} hydrates`,
      timeout: 15_000,
      intervals: [25],
    })
    .toBe(true);
}

const navigations = ['goto', 'reload', 'goBack', 'goForward'] as const;

/** `page`, whose navigations resolve once the page they reach has hydrated. */
export function waitingForHydration(page: Page): Page {
  for (const method of navigations) {
    const navigate = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page['goto']>;
    page[method] = (async (...args: unknown[]) => {
      const response = await navigate(...args);
      await hydrated(page);
      return response;
    }) as never;
  }
  return page;
}

/** Playwright's `test`, whose `page` waits for hydration after each navigation when JavaScript is on. */
export const test = base.extend({
  // `provide` is Playwright's fixture callback (usually named `use`, which the React hooks rule claims).
  page: async ({ page, javaScriptEnabled }, provide) => {
    await provide(javaScriptEnabled === false ? page : waitingForHydration(page));
  },
});

/**
 * Opens `url` and resolves as soon as the document is parsed, before React has hydrated it: the page a
 * visitor on a slow phone already reads, types into and presses. (The `page` fixture's own navigations
 * wait for hydration; a frame's do not.)
 */
export async function landBeforeHydration(page: Page, url: string): Promise<void> {
  await page.mainFrame().goto(url, { waitUntil: 'domcontentloaded' });
}

/**
 * Holds back Next's chunks, as a slow link does for about a round trip after the first paint, until
 * the returned function lets them through.
 */
export async function holdChunks(page: Page): Promise<() => Promise<void>> {
  const held: (() => Promise<void>)[] = [];
  let holding = true;
  await page.route('**/_next/static/chunks/**', (route) => {
    // A held request whose page has gone meanwhile (a native post, a link) cannot be continued: nothing lost.
    if (holding) held.push(() => route.continue().catch(() => undefined));
    else return route.continue();
  });
  return async () => {
    holding = false;
    for (const release of held.splice(0)) await release();
  };
}
