import { galleryListResponse } from '@/server/gallery/http';
import { siteGalleryStore } from '@/server/gallery/site-store';

// The site's own version of the CRM's public gallery list (used when NEXT_PUBLIC_CRM_URL is empty).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(request: Request) {
  return galleryListResponse(request, siteGalleryStore);
}
