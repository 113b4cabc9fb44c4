// No imports: next.config.ts reads these when Next loads its configuration.

/**
 * Every width a gallery image is delivered in: Next's image optimiser accepts exactly these (next.config.ts
 * builds `imageSizes` and `deviceSizes` from them), and `npm run gallery add` stores these sizes.
 * 256/384: a tile in the 4- or 3-column grid on a desktop; 640-1080: a tile on a phone (1-2 columns at
 * 2-3x); 1280-2048: the viewer. Nothing wider than 2048 is ever sent.
 */
export const GALLERY_IMAGE_WIDTHS = [256, 384, 640, 828, 1080, 1280, 1600, 2048] as const;
/**
 * The optimiser's qualities (Next's `qualities`): a tile is seen small and first, so it is sent lighter
 * (quality 60 took about 19 KB off the first view of a gallery of phone photos); the viewer's large
 * image keeps 75.
 */
export const GALLERY_IMAGE_QUALITY = { tile: 60, viewer: 75 } as const;
export type GalleryImageView = keyof typeof GALLERY_IMAGE_QUALITY;
