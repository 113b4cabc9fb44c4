import { describe, expect, it } from 'vitest';
import {
  gallerySrcSet,
  imageDelivery,
  posterSrcSetOf,
  viewerPosterOf,
  sizedImageUrl,
  TILE_SIZES,
  tileWidth,
  VIEWER_SIZES,
} from './responsive-image';
import { GALLERY_IMAGE_WIDTHS } from './image-widths';
import { crmImagePattern, crmIsOnPrivateNetwork } from '@/server/crm/gallery-image-pattern';

/** Evaluates a `sizes` attribute the way a browser does, for the media features and lengths it uses here. */
function slotWidth(sizes: string, viewportWidth: number): number {
  // Entries are separated by ", " outside parentheses; none of ours has a comma inside one.
  for (const entry of sizes.split(', ')) {
    const match = /^(?:\(min-width: (\d+)px\) )?([^ ].*)$/.exec(entry);
    if (!match) throw new Error(`cannot read ${entry}`);
    const [, min, length] = match;
    if (min !== undefined && viewportWidth < Number(min)) continue;
    const value = length!.replace(/100vw/g, String(viewportWidth)).replace(/px/g, '').replace(/^calc/, '');
    // Only digits, spaces, + - * / and parentheses are left.
    if (!/^[\d\s+\-*/().]+$/.test(value)) throw new Error(`unexpected length ${length}`);
    return Function(`return (${value});`)() as number;
  }
  throw new Error('no entry matched');
}

/**
 * The candidate a browser picks from the srcset for a slot `slotWidth` CSS px wide at a device pixel
 * ratio: the narrowest at least slot × ratio, else the widest (the HTML standard leaves the choice to
 * the browser; Chromium and WebKit pick this way).
 */
function chosenWidth(slotWidth: number, devicePixelRatio: number): number {
  const needed = slotWidth * devicePixelRatio;
  return GALLERY_IMAGE_WIDTHS.find((width) => width >= needed) ?? GALLERY_IMAGE_WIDTHS[GALLERY_IMAGE_WIDTHS.length - 1]!;
}

describe('the tile grid’s sizes', () => {
  it('reads, at every viewport width from 320 to 2560 px, the width a tile really has (to 1 px, never less)', () => {
    for (let viewport = 320; viewport <= 2560; viewport += 1) {
      const described = slotWidth(TILE_SIZES, viewport);
      expect(described - tileWidth(viewport), `at ${viewport}px`).toBeGreaterThanOrEqual(0);
      expect(described - tileWidth(viewport), `at ${viewport}px`).toBeLessThan(1);
    }
  });

  it('has the grid’s columns: 1 on a phone, 2 from 640, 3 from 768, 4 from 1280 px', () => {
    expect(tileWidth(375)).toBe(343);
    expect(tileWidth(700)).toBe((700 - 56) / 2);
    expect(tileWidth(1024)).toBeCloseTo((1024 - 80) / 3);
    expect(tileWidth(1280)).toBe(262);
    expect(tileWidth(1920)).toBe(262);
  });

  it('makes a browser pick an image at most twice the tile’s width in device pixels, at 1x, 2x and 3x', () => {
    for (const ratio of [1, 2, 3]) {
      for (let viewport = 320; viewport <= 2560; viewport += 8) {
        const slot = slotWidth(TILE_SIZES, viewport);
        const picked = chosenWidth(slot, ratio);
        expect(picked, `${viewport}px at ${ratio}x`).toBeLessThanOrEqual(2 * tileWidth(viewport) * ratio);
        expect(picked, `${viewport}px at ${ratio}x`).toBeGreaterThanOrEqual(Math.min(slot * ratio, 2048));
      }
    }
  });

  it('the viewer: never wider than twice the screen, never wider than 2048 px', () => {
    for (const ratio of [1, 2, 3]) {
      for (const viewport of [320, 375, 414, 768, 1024, 1280, 1440, 1920, 2560]) {
        const picked = chosenWidth(slotWidth(VIEWER_SIZES, viewport), ratio);
        expect(picked).toBeLessThanOrEqual(Math.max(2 * viewport * ratio, GALLERY_IMAGE_WIDTHS[0]));
        expect(picked).toBeLessThanOrEqual(2048);
      }
    }
  });
});

describe('how an image is delivered', () => {
  const crm = 'https://crm.example.com/base/';

  it('resizes CRM images with the optimiser, at its widths only: tiles at quality 60, the viewer at 75', () => {
    const src = 'https://crm.example.com/api/gallery/image/uploads%2Froof.jpg';
    expect(imageDelivery(src, crm)).toBe('optimiser');
    expect(sizedImageUrl(src, 640, 'optimiser')).toBe(`/_next/image?url=${encodeURIComponent(src)}&w=640&q=60`);
    expect(sizedImageUrl(src, 1280, 'optimiser', 'viewer')).toBe(`/_next/image?url=${encodeURIComponent(src)}&w=1280&q=75`);
    expect(gallerySrcSet(src, crm)?.split(', ')).toEqual(
      GALLERY_IMAGE_WIDTHS.map((width) => `/_next/image?url=${encodeURIComponent(src)}&w=${width}&q=60 ${width}w`),
    );
    expect(gallerySrcSet(src, crm, 'viewer')?.split(', ')).toEqual(
      GALLERY_IMAGE_WIDTHS.map((width) => `/_next/image?url=${encodeURIComponent(src)}&w=${width}&q=75 ${width}w`),
    );
  });

  it('leaves an image on another origin (an out-of-contract absolute imageUrl) as it is', () => {
    expect(imageDelivery('https://elsewhere.example.net/a.jpg', crm)).toBe('as-is');
    expect(imageDelivery('https://crm.example.com.evil.test/a.jpg', crm)).toBe('as-is');
    expect(gallerySrcSet('https://elsewhere.example.net/a.jpg', crm)).toBeUndefined();
  });

  it('asks the built-in gallery for its stored sizes; its static samples go as they are', () => {
    expect(imageDelivery('/api/gallery/image/uploads%2Froof-1a2b.jpg', '')).toBe('stored-sizes');
    expect(gallerySrcSet('/api/gallery/image/uploads%2Froof-1a2b.jpg', '')?.split(', ')[0]).toBe(
      '/api/gallery/image/uploads%2Froof-1a2b.jpg?w=256 256w',
    );
    expect(imageDelivery('/gallery/samples/kitchen-ceiling-sample.webp', '')).toBe('as-is');
  });
});

describe('a video’s still frame', () => {
  it('is resized like an image on the tile (quality 60), and taken at one width as the viewer’s poster (75)', () => {
    const media = {
      kind: 'video',
      src: 'https://crm.example.com/clip.mp4',
      type: 'video/mp4',
      poster: 'https://crm.example.com/clip.jpg',
    } as const;
    expect(posterSrcSetOf(media, 'https://crm.example.com')?.split(', ')[0]).toBe(
      `/_next/image?url=${encodeURIComponent('https://crm.example.com/clip.jpg')}&w=256&q=60 256w`,
    );
    expect(viewerPosterOf(media, 'https://crm.example.com')).toBe(
      `/_next/image?url=${encodeURIComponent('https://crm.example.com/clip.jpg')}&w=1080&q=75`,
    );
    const withoutPoster = { kind: 'video', src: 'https://crm.example.com/clip.mp4', type: 'video/mp4' } as const;
    expect(posterSrcSetOf(withoutPoster, 'https://crm.example.com')).toBeUndefined();
    expect(viewerPosterOf(withoutPoster, 'https://crm.example.com')).toBeUndefined();
  });
});

describe('the optimiser’s allow-list (next.config.ts)', () => {
  it('is the CRM’s origin only, any path, no query string', () => {
    expect(crmImagePattern('https://crm.example.com/base/')).toEqual({
      protocol: 'https',
      hostname: 'crm.example.com',
      port: '',
      pathname: '/**',
      search: '',
    });
    expect(crmImagePattern('http://127.0.0.1:4010')).toMatchObject({ protocol: 'http', hostname: '127.0.0.1', port: '4010' });
    expect(crmImagePattern('')).toBeNull();
  });

  it('allows a private address only when the CRM itself is on one', () => {
    expect(crmIsOnPrivateNetwork('http://127.0.0.1:4010')).toBe(true);
    expect(crmIsOnPrivateNetwork('http://10.1.2.3')).toBe(true);
    expect(crmIsOnPrivateNetwork('http://[::1]:4010')).toBe(true);
    expect(crmIsOnPrivateNetwork('https://crm.example.com')).toBe(false);
    expect(crmIsOnPrivateNetwork('https://8.8.8.8')).toBe(false);
    expect(crmIsOnPrivateNetwork('')).toBe(false);
  });
});
