import 'server-only';
import { crmBaseUrl } from '@/lib/public-env';
import { fetchCrmGalleryList } from './crm-gallery-list';
import { createFirstPhotoPreload } from './first-photo-preload';
import { siteGalleryStore } from './site-store';
import { toPublicItem } from './store';

const testBuild = process.env.NEXT_PUBLIC_E2E_FAULTS === '1';
/** A minute, like the image optimiser's cache (decision 0009); the test build asks on every request, and waits. */
const FRESH_FOR_MS = testBuild ? 0 : 60_000;
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
  waitForRefresh: testBuild,
  onError: (error) =>
    console.warn('[gallery] no first-photo preload header until the list can be read:', error instanceof Error ? error.message : error),
});
