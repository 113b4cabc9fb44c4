import 'server-only';
import { config } from '@/server/base/config.mjs';
import { defaultGalleryStore } from './store';

/** The built-in gallery the site serves when no CRM is configured (shipped samples + GALLERY_DIR). */
export const siteGalleryStore = defaultGalleryStore(config().galleryDir);
