import { galleryMediaResponse } from '@/server/gallery/http';
import { siteGalleryStore } from '@/server/gallery/site-store';

// The site's own version of the CRM's media endpoint: GET /api/gallery/image/{s3Key}.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(request: Request, context: { params: Promise<{ key: string[] }> }) {
  const { key } = await context.params;
  return galleryMediaResponse(request, key.join('/'), siteGalleryStore);
}
