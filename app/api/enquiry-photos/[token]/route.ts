import { createPhotoLinkRoute } from '@/server/crm/photo-links';

// GET /api/enquiry-photos/<token>: one photo of an enquiry, by the signed link its CRM webhook event carries.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const route = createPhotoLinkRoute();

export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  return route.GET(request, context);
}
