import type { Page } from '@playwright/test';

/** The gallery tile showing `title` (its accessible name is all its visible text: badge, title, category). */
export const galleryTile = (page: Page, title: string) =>
  page.locator('button[data-gallery-item]').filter({ has: page.getByText(title, { exact: true }) });
