import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe with the WCAG 2.2 AA tags, plus Label in Name (WCAG 2.5.3), which axe ships as experimental
 * and leaves off unless asked.
 */
export const axe = (page: Page) =>
  new AxeBuilder({ page }).withTags(axeTags).options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
