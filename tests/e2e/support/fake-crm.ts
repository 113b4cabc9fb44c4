import type { GalleryScenario } from '../../../scripts/support/fake-crm';
import { fakeCrmUrl } from '../test-env';

/** Steering the fake CRM from a browser test. */
export const fakeCrm = {
  async reset() {
    await fetch(`${fakeCrmUrl}/__control/reset`, { method: 'POST' });
  },
  async setGallery(scenario: Partial<GalleryScenario>) {
    await fetch(`${fakeCrmUrl}/__control/gallery`, { method: 'PUT', body: JSON.stringify(scenario) });
  },
  /** Paths of the media (images, video) the browser has fetched from the fake since the last reset. */
  async mediaRequests(): Promise<string[]> {
    return (await (await fetch(`${fakeCrmUrl}/__control/media-requests`)).json()) as string[];
  },
  async errorLogs(): Promise<Record<string, unknown>[]> {
    return (await (await fetch(`${fakeCrmUrl}/__control/error-logs`)).json()) as Record<string, unknown>[];
  },
};
