import 'server-only';
import { serverEnv } from '@/server/env';
import { defaultGalleryStore } from './store';

/** The built-in gallery the site serves when no CRM is configured (shipped samples + GALLERY_DIR). */
export const siteGalleryStore = defaultGalleryStore(serverEnv.GALLERY_DIR);
