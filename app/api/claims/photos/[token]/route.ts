import { handleLaterPhotosRequest } from '@/server/claims/later-photos-handler';

// POST /api/claims/photos/<status token>: photos added to a claim from its status page, scripted or not.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return handleLaterPhotosRequest(request, (await params).token);
}
