import { cookies } from 'next/headers';
import { CLAIM_SESSION_COOKIE } from '@/server/claims/link-exchange';
import { dryingDocumentResponse } from '@/server/claims/drying/documents';

type Context = { params: Promise<{ reference: string }> };
const session = async () => (await cookies()).get(CLAIM_SESSION_COOKIE.status)?.value;

// GET /claims/<reference>/electricity.pdf: the claim's electricity statement in kWh, opened by the status page's cookie.
export async function GET(_request: Request, { params }: Context) {
  return dryingDocumentResponse('statement', (await params).reference, await session(), null);
}

// POST: the same with the customer's unit rate, a form field (a GET would put it in the address, its history and logs).
export async function POST(request: Request, { params }: Context) {
  const form = await request.formData().catch(() => new FormData());
  return dryingDocumentResponse('statement', (await params).reference, await session(), form);
}
