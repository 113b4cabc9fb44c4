import type { GalleryScenario } from '../../../scripts/support/fake-crm';
import { fakeCrmUrl, productionFakeCrmUrl, productionSiteUrl, testSiteUrl } from '../test-env';

/** Steering a fake CRM (scripts/support/fake-crm.ts) from a browser test; `site`: the origin of the pages whose reports it reads. */
function fakeCrmAt(url: string, site: string) {
  return {
    url,
    async reset() {
      await fetch(`${url}/__control/reset`, { method: 'POST' });
    },
    async setGallery(scenario: Partial<GalleryScenario>) {
      await fetch(`${url}/__control/gallery`, { method: 'PUT', body: JSON.stringify(scenario) });
    },
    /** Paths of the media (images, video) the browser has fetched from the fake since the last reset. */
    async mediaRequests(): Promise<string[]> {
      return (await (await fetch(`${url}/__control/media-requests`)).json()) as string[];
    },
    /** The error reports the build's pages sent (not those of a server of the same build a spec runs behind a proxy). */
    async errorLogs(): Promise<Record<string, unknown>[]> {
      return (await (await fetch(`${url}/__control/error-logs?origin=${encodeURIComponent(site)}`)).json()) as Record<string, unknown>[];
    },
  };
}

/** The default test build's CRM. */
export const fakeCrm = fakeCrmAt(fakeCrmUrl, testSiteUrl);
/** The production-configuration build's CRM: its own, so the two builds' specs can run side by side. */
export const productionFakeCrm = fakeCrmAt(productionFakeCrmUrl, productionSiteUrl);
