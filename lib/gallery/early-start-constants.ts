/** The window property the gallery's early-start script leaves its request on. */
export const EARLY_START_GLOBAL = '__galleryEarlyStart';

/**
 * The id of the loading skeleton's first frame, which sits where the first tile will: the early-start
 * script shows the first photo in it before the page's JavaScript has run (GalleryView's LoadingState).
 */
export const EARLY_FRAME_ID = 'gallery-first-frame';
