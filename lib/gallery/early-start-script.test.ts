// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { earlyStartScript } from './early-start-script';
import { EARLY_FRAME_ID, EARLY_START_GLOBAL } from './early-start-constants';
import { mediaOf } from './media-url';
import { normaliseGalleryResponse } from './normalise';
import { srcSetOf, TILE_SIZES } from './responsive-image';

const CRM = 'https://crm.example.com/';

function respondWith(body: unknown, ok = true) {
  const response = { ok, clone: () => ({ json: () => Promise.resolve(body) }) };
  const fetchStub = vi.fn(() => Promise.resolve(response));
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

/** Runs the inline script as the page does, then lets its promises settle. */
async function runScript(crmBase: string) {
  new Function(earlyStartScript(crmBase))();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** What the first tile shows for this body, by the tile's own rules. */
function firstTileOf(body: unknown, crmBase: string) {
  const first = normaliseGalleryResponse(body)?.items[0];
  if (!first) throw new Error('no first item');
  const media = mediaOf(first, crmBase);
  if (media.kind !== 'image') throw new Error('first item is no image');
  return { src: media.src, srcSet: srcSetOf(media, crmBase) };
}

const preloads = () => document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]');
const frame = () => document.getElementById(EARLY_FRAME_ID)!;

beforeEach(() => {
  document.body.innerHTML = `<div id="${EARLY_FRAME_ID}"></div>`;
});
afterEach(() => {
  document.head.innerHTML = '';
  delete (window as unknown as Record<string, unknown>)[EARLY_START_GLOBAL];
});

describe('the gallery early-start script', () => {
  it('asks for the list once and leaves the response for GalleryView', async () => {
    const fetchStub = respondWith({ data: [] });
    await runScript(CRM);
    expect(fetchStub).toHaveBeenCalledWith('https://crm.example.com/api/gallery/public', { headers: { Accept: 'application/json' } });
    const early = (window as unknown as Record<string, { url: string; taken: boolean; response: unknown }>)[EARLY_START_GLOBAL];
    expect(early?.url).toBe('https://crm.example.com/api/gallery/public');
    expect(early?.taken).toBe(false);
    expect(early?.response).toBe(fetchStub.mock.results[0]?.value);
  });

  it('preloads and paints the image the first tile shows: the first complete item, at the tile widths', async () => {
    const body = {
      data: [
        { _id: 'x', title: '  ', imageUrl: '/skipped.jpg' },
        { _id: 7, title: 'Kitchen ceiling', imageUrl: 'uploads/kitchen ceiling.jpg', mimeType: 'IMAGE/JPEG' },
        { _id: 'b', title: 'Later', imageUrl: '/later.jpg' },
      ],
    };
    respondWith(body);
    await runScript(CRM);
    const tile = firstTileOf(body, CRM);
    expect(tile.srcSet).toContain('/_next/image?url=');

    expect(preloads()).toHaveLength(1);
    const link = preloads()[0]!;
    expect(link.as).toBe('image');
    expect(link.getAttribute('href')).toBe(tile.src);
    expect(link.getAttribute('imagesrcset')).toBe(tile.srcSet);
    expect(link.getAttribute('imagesizes')).toBe(TILE_SIZES);
    expect(link.getAttribute('fetchpriority')).toBe('high');

    const image = frame().querySelector('img')!;
    expect(frame().children).toHaveLength(1);
    expect(image.getAttribute('src')).toBe(tile.src);
    expect(image.getAttribute('srcset')).toBe(tile.srcSet);
    expect(image.getAttribute('sizes')).toBe(TILE_SIZES);
    expect(image.getAttribute('alt')).toBe('');
    expect([image.width, image.height]).toEqual([800, 600]);
    expect(image.getAttribute('fetchpriority')).toBe('high');
    expect(image.className).toBe('h-full w-full object-cover');
  });

  it("uses the built-in gallery's stored sizes for an s3Key under the site's own origin", async () => {
    const body = [{ _id: 'a', title: 'Roof', s3Key: 'roof/one.jpg' }];
    respondWith(body);
    await runScript('');
    const tile = firstTileOf(body, '');
    expect(tile.srcSet).toContain('?w=256 256w');
    expect(preloads()[0]?.getAttribute('href')).toBe('/api/gallery/image/roof%2Fone.jpg');
    expect(preloads()[0]?.getAttribute('imagesrcset')).toBe(tile.srcSet);
    expect(frame().querySelector('img')?.getAttribute('srcset')).toBe(tile.srcSet);
  });

  it('gives an image the optimiser cannot take (another origin) without a srcset', async () => {
    respondWith([{ _id: 'a', title: 'Elsewhere', imageUrl: 'https://cdn.example.org/a.jpg' }]);
    await runScript(CRM);
    expect(preloads()[0]?.getAttribute('href')).toBe('https://cdn.example.org/a.jpg');
    expect(preloads()[0]?.hasAttribute('imagesrcset')).toBe(false);
    expect(frame().querySelector('img')?.hasAttribute('srcset')).toBe(false);
  });

  it('starts nothing when the first tile is a video, has no image URL, or the list failed', async () => {
    for (const [body, ok] of [
      [[{ _id: 'v', title: 'Drying', imageUrl: '/v.mp4', mimeType: 'video/mp4' }], true],
      [[{ _id: 'f', title: 'File only', filename: 'a.jpg' }], true],
      [{ items: [] }, true],
      [[{ _id: 'a', title: 'Roof', imageUrl: '/a.jpg' }], false],
    ] as const) {
      respondWith(body, ok);
      await runScript(CRM);
      expect(preloads()).toHaveLength(0);
      expect(frame().children).toHaveLength(0);
    }
  });

  it('leaves a frame that already has content alone', async () => {
    frame().append(document.createElement('span'));
    respondWith([{ _id: 'a', title: 'Roof', imageUrl: '/a.jpg' }]);
    await runScript(CRM);
    expect(preloads()).toHaveLength(1);
    expect(frame().querySelector('img')).toBeNull();
  });

  it('never throws where the browser has no fetch', () => {
    vi.stubGlobal('fetch', undefined);
    expect(() => new Function(earlyStartScript(CRM))()).not.toThrow();
  });
});
