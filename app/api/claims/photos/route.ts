import { handleLaterPhotosRequest } from '@/server/claims/later-photos-handler';

// POST /api/claims/photos: photos added to a claim from its status page, scripted or not.
export async function POST(request: Request) {
  return handleLaterPhotosRequest(request);
}
