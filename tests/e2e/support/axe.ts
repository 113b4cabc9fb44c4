import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * An AxeBuilder that judges a page once its title has come. A page answered after a press (a form
 * posted, a server action) streams its metadata after its content, so a test that saw the content may
 * reach axe before the <title>: axe would then report a missing title the visitor never meets. A page
 * that never gets one still fails, here, by name.
 */
class LoadedPageAxe extends AxeBuilder {
  readonly #page: Page;

  constructor(page: Page) {
    super({ page });
    this.#page = page;
  }

  override async analyze() {
    await expect
      .poll(() => this.#page.evaluate(() => document.title).catch(() => ''), { message: `${this.#page.url()} has a title` })
      .not.toBe('');
    return super.analyze();
  }
}

/**
 * axe with the WCAG 2.2 AA tags, plus Label in Name (WCAG 2.5.3), which axe ships as experimental
 * and leaves off unless asked.
 */
export const axe = (page: Page) =>
  new LoadedPageAxe(page).withTags(axeTags).options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
