import type { Page } from '@playwright/test';

/** Two photos as the CRM on another origin lists them, one under each media rule (imageUrl, s3Key), in two categories. */
export const crmKitchenCeiling = {
  _id: 'w1',
  title: 'Kitchen ceiling',
  category: 'Water Damage',
  description: 'Ceiling re-boarded after a leak.',
  tags: ['ceiling'],
  mimeType: 'image/webp',
  imageUrl: '/gallery/samples/kitchen-ceiling-sample.webp',
};
export const crmSlateRoof = {
  _id: 's1',
  title: 'Slate roof',
  category: 'Storm Damage',
  description: 'Slipped slates replaced.',
  tags: ['roof'],
  mimeType: 'image/jpeg',
  s3Key: 'samples/slate-roof-sample.jpg',
};

/** The gallery tile showing `title` (its accessible name is all its visible text: badge, title, category). */
export const galleryTile = (page: Page, title: string) =>
  page.locator('button[data-gallery-item]').filter({ has: page.getByText(title, { exact: true }) });
