import type { GalleryScenario } from '../../../scripts/support/fake-crm';
import { fakeCrmUrl, productionFakeCrmUrl } from '../test-env';

/** Steering a fake CRM (scripts/support/fake-crm.ts) from a browser test. */
function fakeCrmAt(url: string) {
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
    async errorLogs(): Promise<Record<string, unknown>[]> {
      return (await (await fetch(`${url}/__control/error-logs`)).json()) as Record<string, unknown>[];
    },
  };
}

/** The default test build's CRM. */
export const fakeCrm = fakeCrmAt(fakeCrmUrl);
/** The production-configuration build's CRM: its own, so the two builds' specs can run side by side. */
export const productionFakeCrm = fakeCrmAt(productionFakeCrmUrl);
