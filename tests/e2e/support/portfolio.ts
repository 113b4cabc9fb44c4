// What the portfolio tests share: a portfolio link opened as its person opens it (the token waiting in a
// cookie, the page reached without it, "Open my claims" pressed), `npm run insurers` run against the test
// build's database, and the references of the rows the page shows.
import { portfolioLinkText } from '@/content/portfolio';
import { printed, runCommand, runTool } from '../../support/tool-host/client';
import { testBuildEnv, testSiteUrl } from '../test-env';
import { expect, waitingForHydration, type Browser, type Page } from './test';

/** A second person's browser (a context of its own: no cookies shared), its page waiting for hydration as the `page` fixture's does. */
export async function anotherPerson(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: testSiteUrl });
  return waitingForHydration(await context.newPage());
}

/** Brings the portfolio link with this token to /portfolio as its person's browser does: no-store, no Referer, nothing used yet. */
export async function bringPortfolioLink(page: Page, token: string) {
  const exchanged = page.waitForResponse((response) => response.url().includes('/portfolio/open/'));
  await page.goto(`/portfolio/open/${token}`);
  const answer = await exchanged;
  expect(answer.status()).toBe(200);
  expect(answer.headers()).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  await expect(page).toHaveURL(/\/portfolio$/);
}

/** Opens the portfolio with the link of this token: brought to the page, then "Open my claims" pressed. */
export async function openPortfolio(page: Page, token: string) {
  await bringPortfolioLink(page, token);
  await page.getByTestId('portfolio-open-link').getByRole('button', { name: portfolioLinkText.open.button }).click();
  await expect(page.getByTestId('portfolio')).toBeVisible();
  await expect(page).toHaveURL(/\/portfolio$/);
}

/** Our references of the rows the page shows, in its order. */
export const rowReferences = (page: Page) => page.getByTestId('portfolio-row').getByRole('rowheader').allTextContents();

/**
 * `npm run insurers -- …` against the test build's database, run in process by the tool host: what it
 * printed (it throws on a non-zero exit).
 */
export const insurersCommand = (...args: string[]) => printed(runTool('insurers', args, testBuildEnv));

/** The same, as the operator runs it: `npm run insurers -- …` in a process of its own (one test does, for its entry point). */
export const insurersCommandEndToEnd = (...args: string[]) => printed(runCommand('insurers', args, testBuildEnv));
