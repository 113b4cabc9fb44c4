// What the portfolio tests share: a portfolio link opened as its person opens it (the token traded for a
// cookie, the page reached without it), `npm run insurers` run against the test build's database, and
// the references of the rows the page shows.
import { printed, runCommand, runTool } from '../../support/tool-host/client';
import { testBuildEnv } from '../test-env';
import { expect, type Page } from './test';

/** Opens the portfolio link with this token and checks the exchange: no-store, no Referer, then /portfolio. */
export async function openPortfolio(page: Page, token: string) {
  const exchanged = page.waitForResponse((response) => response.url().includes('/portfolio/open/'));
  await page.goto(`/portfolio/open/${token}`);
  const answer = await exchanged;
  expect(answer.status()).toBe(200);
  expect(answer.headers()).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
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
