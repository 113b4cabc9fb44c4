import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { createLogger } from '@/lib/logger';
import { galleryEndpoint, loadGallery } from './load-gallery';

function client(response: () => Response | Promise<Response>) {
  const sent: string[] = [];
  const quiet = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const log = createLogger({
    endpoint: 'http://crm.test/api/error-logs',
    console: quiet,
    send: async (_url, body) => void sent.push(body),
  });
  const fetchImpl = vi.fn(async () => response());
  return { request: createApiClient(log, fetchImpl as unknown as typeof fetch), fetchImpl, sent, log, quiet };
}

describe('loadGallery', () => {
  it('calls GET {crm}/api/gallery/public', async () => {
    const { request, fetchImpl } = client(() => Response.json([]));
    await loadGallery('http://crm.test/', { request });
    expect(galleryEndpoint('')).toBe('/api/gallery/public');
    expect(fetchImpl).toHaveBeenCalledWith('http://crm.test/api/gallery/public', expect.objectContaining({ method: 'GET' }));
  });
  it('returns normalised items and categories', async () => {
    const { request } = client(() => Response.json({ data: [{ _id: '1', title: 'A', category: 'Roofs', s3Key: 'a.jpg' }, { _id: '2' }] }));
    const content = await loadGallery('http://crm.test', { request });
    expect(content.items.map((item) => item._id)).toEqual(['1']);
    expect(content.categories).toEqual(['Roofs']);
  });
  it("turns a non-OK answer into 'Failed to fetch photos', logged once by the API client", async () => {
    const { request, sent, quiet } = client(() => new Response('{"message":"boom"}', { status: 500 }));
    const error = await loadGallery('http://crm.test', { request }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'GalleryLoadError', message: 'Failed to fetch photos' });
    expect((error as Error).cause).toBeInstanceOf(ApiError);
    await Promise.resolve();
    expect(sent.map((body) => JSON.parse(body) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'error', category: 'server', statusCode: 500, path: '/api/gallery/public', method: 'GET' }),
    ]);
    // The console says it in the gallery's words too.
    expect(quiet.error).toHaveBeenCalledWith('[error] Failed to fetch photos', expect.anything());
  });
  it('a failed connection keeps its own message and is logged once, by the API client', async () => {
    const { request, sent } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(loadGallery('http://crm.test', { request })).rejects.toMatchObject({
      name: 'GalleryLoadError',
      message: 'Network Error: Failed to fetch',
    });
    await Promise.resolve();
    expect(sent.map((body) => JSON.parse(body) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'error', category: 'network', path: '/api/gallery/public' }),
    ]);
  });
  it('fails on a body of neither shape, logged once, by the API client', async () => {
    const { request, sent } = client(() => Response.json({ photos: [] }));
    await expect(loadGallery('', { request })).rejects.toMatchObject({ name: 'GalleryLoadError' });
    await Promise.resolve();
    expect(sent.map((body) => JSON.parse(body) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: 'error',
        category: 'client',
        message: 'Unexpected gallery response: neither an array nor an object with a data array',
        metadata: { component: 'gallery' },
      }),
    ]);
  });
  it('logs nothing for a load its caller gave up', async () => {
    const controller = new AbortController();
    const { request, sent } = client(() => {
      controller.abort();
      return Response.json({ photos: [] });
    });
    await expect(loadGallery('', { request, signal: controller.signal })).rejects.toThrow();
    await Promise.resolve();
    expect(sent).toEqual([]);
  });
});
