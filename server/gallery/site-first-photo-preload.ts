import 'server-only';
import { crmBaseUrl } from '@/lib/public-env';
import { config } from '@/server/base/config.mjs';
import { fetchCrmGalleryList } from '../crm/gallery-list';
import { createFirstPhotoPreload } from './first-photo-preload';
import { siteGalleryStore } from './site-store';
import { toPublicItem } from './store';

/** GALLERY_REFRESH_SECONDS, like the image optimiser's cache (a minute by default, decision 0009). */
const FRESH_FOR_MS = config().galleryRefreshSeconds * 1000;
/** With GALLERY_REFRESH_SECONDS=0 (no copy kept), how long a request waits for the list, no longer. */
const WAIT_FOR_LIST_MS = 500;
/** A photo taken down at the CRM is not announced for longer than this, even when the CRM is unreachable. */
const USABLE_FOR_MS = 10 * 60_000;

/** This site's first-photo hint: from the CRM's list, or from the built-in gallery when there is no CRM. */
export const siteFirstPhotoPreload = createFirstPhotoPreload({
  crmBase: crmBaseUrl,
  loadList: crmBaseUrl
    ? () => fetchCrmGalleryList(crmBaseUrl)
    : async () => ({ data: (await siteGalleryStore.listPublic()).map(toPublicItem) }),
  freshForMs: FRESH_FOR_MS,
  usableForMs: USABLE_FOR_MS,
  waitMs: WAIT_FOR_LIST_MS,
  onError: (error) =>
    console.warn('[gallery] no first-photo preload header until the list can be read:', error instanceof Error ? error.message : error),
});
