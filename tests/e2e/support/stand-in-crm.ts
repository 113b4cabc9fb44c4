import type { GalleryScenario } from '../../../scripts/support/stand-in-crm';
import { standInCrmUrl } from '../test-env';

/** Steering the stand-in CRM from a browser test. */
export const standInCrm = {
  async reset() {
    await fetch(`${standInCrmUrl}/__control/reset`, { method: 'POST' });
  },
  async setGallery(scenario: Partial<GalleryScenario>) {
    await fetch(`${standInCrmUrl}/__control/gallery`, { method: 'PUT', body: JSON.stringify(scenario) });
  },
  /** Paths of the media (images, video) the browser has fetched from the stand-in since the last reset. */
  async mediaRequests(): Promise<string[]> {
    return (await (await fetch(`${standInCrmUrl}/__control/media-requests`)).json()) as string[];
  },
  async errorLogs(): Promise<Record<string, unknown>[]> {
    return (await (await fetch(`${standInCrmUrl}/__control/error-logs`)).json()) as Record<string, unknown>[];
  },
};
