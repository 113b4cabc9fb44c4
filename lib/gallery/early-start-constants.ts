/** The window property the gallery's early-start script leaves its request on. */
export const EARLY_START_GLOBAL = '__galleryEarlyStart';
