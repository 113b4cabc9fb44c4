import { cookies } from 'next/headers';
import { handleLaterPhotosRequest } from '@/server/intake/later-photos-handler';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';

// POST /claims/<reference>/photos: photos added to a claim from its status page, scripted or not, opened by the status page's cookie.
export async function POST(request: Request, { params }: { params: Promise<{ reference: string }> }) {
  const session = (await cookies()).get(CLAIM_SESSION_COOKIE.status)?.value;
  return handleLaterPhotosRequest(request, (await params).reference, session);
}
