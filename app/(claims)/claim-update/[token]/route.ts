import { exchangeLink } from '@/server/claims/link-exchange';

// GET /claim-update/<staff token>, the company's link: traded for a cookie, then the staff page by reference.
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return exchangeLink('update', (await params).token, { host: request.headers.get('host') });
}
