import { cookies } from 'next/headers';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';
import { dryingDocumentResponse } from '@/server/claims/drying/documents';

// GET /claims/<reference>/certificate.pdf: the certificate of dryness once the claim is at `dried`, opened by the status page's cookie.
export async function GET(_request: Request, { params }: { params: Promise<{ reference: string }> }) {
  const session = (await cookies()).get(CLAIM_SESSION_COOKIE.status)?.value;
  return dryingDocumentResponse('certificate', (await params).reference, session, null);
}
